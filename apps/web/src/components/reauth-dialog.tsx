/**
 * "Confirme a sua identidade": asked before a sensitive action when the last
 * proof of the session is older than a few minutes (the server answered
 * `reauth-required`). The e-mail comes filled with the signed-in user's; the
 * person types the password. Another account's credentials are refused
 * (`user-mismatch`), a wrong password can be typed again, and cancelling
 * leaves the action undone. An account with a second factor may instead
 * type its authenticator app's code or one of its recovery codes, or use its
 * passkey; one who signs in through the unit's identity provider confirms
 * through it.
 */
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconFingerprint } from '@tabler/icons-react';
import { AUTH_ERRORS, SECOND_FACTOR_ERRORS, secondFactorStatusSchema } from '@exame/shared';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { api } from '../lib/api';
import { signInProvidersQuery, ssoStartAddress } from '../api/sign-in-providers';
import { ApiError } from '../lib/api-client';
import { useAppState } from '../lib/app-store';
import { textField } from '../lib/forms';
import { signWithPasskey } from '../lib/passkeys';
import { isReauthOpen, settleReauth, startProviderReauth, subscribeReauth } from '../lib/reauth';
import { AppModal } from './app-modal';
import { codeMethodOf, codeProblem, OneTimeCodeInput } from './one-time-code-input';

const CATALOGUE: Readonly<Record<string, { message: string }>> = {
  ...AUTH_ERRORS,
  ...SECOND_FACTOR_ERRORS,
};

function errorText(error: unknown): string {
  if (error instanceof ApiError && error.code && CATALOGUE[error.code]) {
    return CATALOGUE[error.code]!.message;
  }
  // The browser refused the passkey (cancelled, unsupported): the same text as a refused one.
  if (error instanceof ApiError && error.code?.startsWith('passkey-')) {
    return SECOND_FACTOR_ERRORS['passkey-failed'].message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** How the person proves who they are: the password, or a second-factor code. */
type Proof = 'password' | 'code';

export function ReauthDialog() {
  const open = useSyncExternalStore(subscribeReauth, isReauthOpen);
  return open ? <ReauthForm /> : null;
}

function ReauthForm() {
  const userEmail = useAppState((state) => state.user?.email ?? '');
  const [email, setEmail] = useState(userEmail);
  const [password, setPassword] = useState('');
  const [proof, setProof] = useState<Proof>('password');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Which second factors the account has: the code option and the passkey appear only then.
  const factors = useQuery({
    queryKey: ['auth', 'factors'],
    queryFn: async ({ signal }) =>
      secondFactorStatusSchema.parse(await api.get<unknown>('api/Auth/factors', { signal })),
    retry: false,
  });
  const kinds = new Set(factors.data?.factors.map((factor) => factor.kind));
  const takesCode = kinds.has('totp') || (factors.data?.recoveryCodesLeft ?? 0) > 0;

  const prove = async (send: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await send();
      settleReauth(true);
    } catch (failure) {
      setError(errorText(failure));
      setPassword('');
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  const withPasskey = () =>
    prove(async () => {
      const options = await api.post<PublicKeyCredentialRequestOptionsJSON>(
        'api/Auth/reauthenticate/passkey/options',
      );
      await api.post('api/Auth/reauthenticate', { credential: await signWithPasskey(options) });
    });

  const switchProof = (next: Proof) => {
    setProof(next);
    setError(null);
    setPassword('');
    setCode('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing =
      proof === 'password'
        ? !email.trim() || !password
          ? 'Informe o e-mail e a senha.'
          : null
        : codeProblem('any', code);
    if (missing) {
      setError(missing);
      return;
    }
    await prove(() =>
      api.post(
        'api/Auth/reauthenticate',
        proof === 'password'
          ? { email: email.trim(), password }
          : { method: codeMethodOf(code), code: code.replace(/\s/g, '') },
      ),
    );
  };

  return (
    <AppModal
      opened
      onClose={() => settleReauth(false)}
      title="Confirme a sua identidade"
      width="420px"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {proof === 'password'
              ? 'Esta ação é sensível. Por segurança, confirme a sua senha para continuar.'
              : 'Esta ação é sensível. Por segurança, digite o código do aplicativo autenticador ou um código de recuperação.'}
          </Text>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          {proof === 'password' ? (
            <>
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="username"
                {...textField(email, setEmail)}
              />
              <PasswordInput
                label="Senha"
                autoComplete="current-password"
                {...textField(password, setPassword)}
                data-autofocus
              />
            </>
          ) : (
            <OneTimeCodeInput
              kind="any"
              value={code}
              onChange={setCode}
              description="Os 6 dígitos do aplicativo, ou um código de recuperação (que deixa de valer)."
              autoComplete="one-time-code"
              data-autofocus
              autoFocus
            />
          )}
          {(takesCode || proof === 'code') && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              ta="left"
              onClick={() => switchProof(proof === 'password' ? 'code' : 'password')}
            >
              {proof === 'password'
                ? 'Usar código do aplicativo autenticador ou código de recuperação'
                : 'Usar a senha'}
            </Anchor>
          )}
          {kinds.has('passkey') && (
            <Button
              variant="default"
              leftSection={<IconFingerprint size={16} />}
              onClick={() => void withPasskey()}
              disabled={busy}
            >
              Usar chave de acesso
            </Button>
          )}
          <ProviderProofs />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => settleReauth(false)}>
              Cancelar
            </Button>
            <Button type="submit" loading={busy}>
              Confirmar
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}

/**
 * The unit's identity providers, for who signs in through one: the provider
 * is asked to authenticate the person again, and the browser comes back to
 * this page, where the action is done again.
 */
function ProviderProofs() {
  const unit = useAppState((state) => state.user?.federativeUnit ?? null);
  const providers = useQuery(signInProvidersQuery(unit));
  if (!providers.data?.length) return null;
  return (
    <Stack gap={6}>
      <Text size="xs" c="dimmed">
        Entra pelo provedor de identidade? Confirme por ele (a página volta aqui; repita a ação).
      </Text>
      {providers.data.map((provider) => (
        <Button
          key={provider.id}
          variant="default"
          onClick={() => startProviderReauth(ssoStartAddress(provider.id))}
        >
          Confirmar com {provider.name}
        </Button>
      ))}
    </Stack>
  );
}
