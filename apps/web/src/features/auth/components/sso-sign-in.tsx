/**
 * Sign-in through the unit's identity providers: one button per enabled
 * provider under the password form, the reason a provider's sign-in was
 * refused (the server's return to `/login?sso_error=<code>`). The return
 * itself lands on `/login/sso` (sso-return-page.tsx).
 */
import { Button, Divider, Stack } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { findFederativeUnit, SSO_ERRORS } from '@exame/shared';
import { ApiError } from '../../../lib/api-client';
import { appStore } from '../../../lib/app-store';
import { currentTenant } from '../../../lib/tenant';
import { signInProvidersQuery, ssoStartAddress } from '../api/sso';
import { identityErrorText } from '../identity-errors';

/** The unit's providers as buttons; nothing at all when the unit has none (or the list fails). */
export function SsoProviderButtons({ unit }: { unit: string | null }) {
  const providers = useQuery(signInProvidersQuery(unit));
  if (!providers.data || providers.data.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="sso-providers">
      <Divider label="ou" labelPosition="center" />
      {providers.data.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={ssoStartAddress(provider.id)}
          onClick={() => rememberSsoUnit(unit)}
          variant="default"
          leftSection={<IconLogin2 size={16} />}
          fullWidth
        >
          Entrar com {provider.name}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * The unit whose provider was chosen, kept for this tab only (sessionStorage)
 * while the browser is away at the provider: a refused sign-in comes back to
 * the same unit's screen, its buttons there to try again.
 */
const SSO_UNIT_KEY = 'ssoUnit';

function rememberSsoUnit(unit: string | null): void {
  try {
    if (unit) sessionStorage.setItem(SSO_UNIT_KEY, unit);
  } catch {
    // Storage refused: the unit is chosen again by hand.
  }
}

function takeSsoUnit(): string | null {
  try {
    const unit = sessionStorage.getItem(SSO_UNIT_KEY);
    sessionStorage.removeItem(SSO_UNIT_KEY);
    return unit;
  } catch {
    return null;
  }
}

/** Why the provider's sign-in came back refused, read from the address once and then dropped from it. */
export function useSsoRefusal(): ApiError | null {
  const [params, setParams] = useSearchParams();
  const [code] = useState(() => params.get('sso_error'));
  useEffect(() => {
    if (!code) return;
    const unit = findFederativeUnit(takeSsoUnit() ?? '');
    // A unit named by the address stays; otherwise the one chosen before leaving.
    if (unit && !currentTenant().federativeUnit) appStore.selectFederativeUnit(unit);
  }, [code]);
  useEffect(() => {
    if (!params.has('sso_error')) return;
    const next = new URLSearchParams(params);
    next.delete('sso_error');
    setParams(next, { replace: true });
  }, [params, setParams]);
  // A code this screen does not know reads as the generic failure.
  const text =
    code && identityErrorText(new ApiError(SSO_ERRORS['sso-failed'].message, null, code));
  return code ? new ApiError(text || SSO_ERRORS['sso-failed'].message, null, code) : null;
}
