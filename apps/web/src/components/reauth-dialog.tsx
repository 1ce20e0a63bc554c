/**
 * "Confirme a sua identidade": asked before a sensitive action when the last
 * proof of the session is older than a few minutes (the server answered
 * `reauth-required`). The e-mail comes filled with the signed-in user's; the
 * person types the password. Another account's credentials are refused
 * (`user-mismatch`), a wrong password can be typed again, and cancelling
 * leaves the action undone.
 */
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { AUTH_ERRORS } from '@exame/shared';
import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { api } from '../lib/api';
import { ApiError } from '../lib/api-client';
import { useAppState } from '../lib/app-store';
import { textField } from '../lib/forms';
import { isReauthOpen, settleReauth, subscribeReauth } from '../lib/reauth';
import { AppModal } from './app-modal';

function errorText(error: unknown): string {
  if (error instanceof ApiError && error.code && error.code in AUTH_ERRORS) {
    return AUTH_ERRORS[error.code as keyof typeof AUTH_ERRORS].message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function ReauthDialog() {
  const open = useSyncExternalStore(subscribeReauth, isReauthOpen);
  return open ? <ReauthForm /> : null;
}

function ReauthForm() {
  const userEmail = useAppState((state) => state.user?.email ?? '');
  const [email, setEmail] = useState(userEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Informe o e-mail e a senha.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.post('api/Auth/reauthenticate', { email: email.trim(), password });
      settleReauth(true);
    } catch (failure) {
      setError(errorText(failure));
      setPassword('');
    } finally {
      setBusy(false);
    }
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
            Esta ação é sensível. Por segurança, confirme a sua senha para continuar.
          </Text>
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
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
