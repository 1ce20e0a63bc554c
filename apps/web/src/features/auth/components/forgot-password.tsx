/** Asks for a reset (or register) link by e-mail or CPF; the answer never says whether the account exists. */
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { AppModal } from '../../../components/app-modal';
import { ApiError } from '../../../lib/api-client';
import { requestPasswordReset, requestRegisterLink } from '../api/password';

export function ForgotPasswordButton({
  purpose = 'reset',
  initialValue = '',
  variant = 'button',
}: {
  purpose?: 'reset' | 'register';
  initialValue?: string;
  variant?: 'button' | 'link';
}) {
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState(initialValue);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const label = purpose === 'register' ? 'Enviar novo link de cadastro' : 'Esqueci minha senha';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') return;
    setSending(true);
    try {
      const response = await (purpose === 'register'
        ? requestRegisterLink(value)
        : requestPasswordReset(value));
      setResult({ ok: true, message: response.message });
    } catch (caught) {
      setResult({
        ok: false,
        message: caught instanceof ApiError ? caught.message : String(caught),
      });
    } finally {
      setSending(false);
    }
  };

  const close = () => {
    setOpened(false);
    setResult(null);
  };

  return (
    <>
      {variant === 'link' ? (
        <Anchor component="button" type="button" size="sm" onClick={() => setOpened(true)}>
          {label}
        </Anchor>
      ) : (
        <Button variant="light" onClick={() => setOpened(true)}>
          {label}
        </Button>
      )}
      <AppModal opened={opened} onClose={close} title={label} width="420px" allowBackdropClose>
        {result ? (
          <Stack>
            <Alert color={result.ok ? 'teal' : 'red'} role={result.ok ? 'status' : 'alert'}>
              {result.message}
            </Alert>
            <Button onClick={close}>Ok</Button>
          </Stack>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack>
              <Text size="sm">
                Informe o e-mail ou o CPF do cadastro. Enviaremos um link válido por 30 minutos.
              </Text>
              <TextInput
                label="E-mail ou CPF"
                value={value}
                onChange={(event) => setValue(event.currentTarget.value)}
                required
                data-autofocus
              />
              <Button type="submit" loading={sending} disabled={value.trim() === ''}>
                Enviar link
              </Button>
            </Stack>
          </form>
        )}
      </AppModal>
    </>
  );
}
