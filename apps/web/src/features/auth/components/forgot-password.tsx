/** Asks for a reset (or register) link by e-mail or CPF; the answer never says whether the account exists. */
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AppModal } from '../../../components/app-modal';
import { requestPasswordReset, requestRegisterLink } from '../api/password';
import { textField } from '../../../lib/forms';

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
  const label = purpose === 'register' ? 'Enviar novo link de cadastro' : 'Esqueci minha senha';
  const send = useMutation({
    mutationFn: (text: string) =>
      purpose === 'register' ? requestRegisterLink(text) : requestPasswordReset(text),
  });
  const result = send.isSuccess
    ? { ok: true, message: send.data.message }
    : send.isError
      ? { ok: false, message: send.error.message }
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') return;
    send.mutate(value);
  };

  const close = () => {
    setOpened(false);
    send.reset();
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
          <form onSubmit={submit} noValidate>
            <Stack>
              <Text size="sm">
                Informe o e-mail ou o CPF do cadastro. Enviaremos um link válido por 30 minutos.
              </Text>
              <TextInput
                label="E-mail ou CPF"
                {...textField(value, setValue)}
                required
                data-autofocus
              />
              <Button type="submit" loading={send.isPending} disabled={value.trim() === ''}>
                Enviar link
              </Button>
            </Stack>
          </form>
        )}
      </AppModal>
    </>
  );
}
