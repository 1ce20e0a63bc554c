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
import { ApiError } from '../../../lib/api-client';
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

/** Why the provider's sign-in came back refused, read from the address once and then dropped from it. */
export function useSsoRefusal(): ApiError | null {
  const [params, setParams] = useSearchParams();
  const [code] = useState(() => params.get('sso_error'));
  useEffect(() => {
    if (!params.has('sso_error')) return;
    const next = new URLSearchParams(params);
    next.delete('sso_error');
    setParams(next, { replace: true });
  }, [params, setParams]);
  return code ? new ApiError(identityErrorText(new ApiError('', null, code)), null, code) : null;
}
