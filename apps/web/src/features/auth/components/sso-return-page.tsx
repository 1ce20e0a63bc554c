/**
 * `/login/sso`: where the provider's return lands (`#handoff=...`). The
 * one-time hand-off is read from the fragment, which never reaches a server
 * log, dropped from the address, and traded for the session; or, when the
 * trip was a proof before a sensitive action (reauth-dialog.tsx), for that
 * proof, and the browser goes back to the page that asked for it.
 */
import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../components/toast';
import { clearProviderReauth, readProviderReauth } from '../../../lib/reauth';
import { completeSsoSignIn, confirmWithSso } from '../api/sso';
import { AuthCard, IdentityErrorAlert } from './auth-card';

/** `/login/sso`: the provider's return; the hand-off in the fragment never reaches a server log. */
export function SsoReturnPage() {
  const navigate = useNavigate();
  const [handoff] = useState(() =>
    new URLSearchParams(window.location.hash.slice(1)).get('handoff'),
  );
  const [error, setError] = useState<Error | null>(() =>
    handoff ? null : new ApiError('', null, 'sso-expired'),
  );
  // A proof before a sensitive action comes back to the page that asked for it.
  const [proof] = useState(readProviderReauth);
  const started = useRef(false);
  useEffect(() => {
    // The fragment leaves the address (and the history) before anything else happens.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (started.current || !handoff) return;
    started.current = true;
    clearProviderReauth();
    void (
      proof
        ? confirmWithSso(handoff).then(() => {
            toast.success('Identidade confirmada. Repita a ação para concluí-la.');
            void navigate(proof.returnTo, { replace: true });
          })
        : completeSsoSignIn(handoff).then(() => navigate('/home', { replace: true }))
    ).catch((failure: unknown) =>
      setError(failure instanceof Error ? failure : new Error(String(failure))),
    );
  }, [handoff, navigate, proof]);

  return (
    <AuthCard
      title={proof ? 'Confirmar a identidade' : 'Entrar'}
      subtitle="Entrada pelo provedor de identidade"
      width={400}
    >
      {error ? (
        <Stack gap="md">
          <IdentityErrorAlert error={error} testId="sso-error" />
          <Anchor component={Link} to={proof?.returnTo ?? '/login'}>
            {proof ? 'Voltar para a página anterior' : 'Voltar para a tela de entrada'}
          </Anchor>
        </Stack>
      ) : (
        <Center py="md" role="status" aria-live="polite">
          <Stack align="center" gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">{proof ? 'Confirmando a identidade…' : 'Concluindo a entrada…'}</Text>
          </Stack>
        </Center>
      )}
    </AuthCard>
  );
}
