/**
 * The set-up of an authenticator app, the same at sign-in (enrolment ticket)
 * and on the security page: the QR code and the secret to type by hand, then
 * the app's first code and an optional name confirm it. A set-up that
 * expired on the server is asked again.
 */
import { Button, Center, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { factorConfirmationSchema } from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { codeProblem, OneTimeCodeInput } from '../../../components/one-time-code-input';
import { ApiError } from '../../../lib/api-client';
import { textField, validateForm } from '../../../lib/forms';
import type { FactorSetupApi } from '../api/second-factor';
import { IdentityErrorAlert } from './auth-card';
import { LoadingSpinner } from '../../../components/loading-spinner';

/** `JBSWY3DPEHPK3PXP` -> `JBSW Y3DP EHPK 3PXP`, easier to type. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

export function TotpSetupForm<Result>({
  setup,
  onConfirmed,
  actions,
}: {
  setup: FactorSetupApi<Result>;
  onConfirmed: (result: Result) => void;
  /** Buttons beside "Confirmar" (back, cancel). */
  actions?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('');
  const [problems, setProblems] = useState<{ code?: string | null; label?: string }>({});
  // A POST that makes the secret: asked once per set-up (the scope), never again by itself.
  const totp = useQuery({
    queryKey: [...setup.scope, 'totp'],
    queryFn: setup.startTotp,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: (input: { code: string; label: string | undefined }) =>
      setup.confirm({ method: 'totp', ...input }),
    onSuccess: onConfirmed,
    onError: (error) => {
      setCode('');
      if (error instanceof ApiError && error.code === 'mfa-setup-missing') void totp.refetch();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const codeError = codeProblem('totp', code);
    const checked = validateForm(factorConfirmationSchema, {
      method: 'totp',
      code: code.replace(/\s/g, ''),
      label: label.trim() || undefined,
    });
    const labelError = checked.errors ? (checked.errors as { label?: string }).label : undefined;
    setProblems({ code: codeError, label: labelError });
    if (codeError || !checked.data || checked.data.method !== 'totp') return;
    confirm.mutate({ code: checked.data.code, label: checked.data.label });
  };

  if (totp.isPending) {
    return (
      <Center p="lg">
        <LoadingSpinner size="sm" label="Preparando o aplicativo autenticador" />
      </Center>
    );
  }
  if (totp.isError) {
    return (
      <Stack gap="sm">
        <IdentityErrorAlert error={totp.error} testId="totp-setup-error" />
        <Group justify="flex-end">
          {actions}
          <Button variant="light" onClick={() => void totp.refetch()}>
            Tentar novamente
          </Button>
        </Group>
      </Stack>
    );
  }

  const { secret, otpauthUri } = totp.data;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          1. No aplicativo autenticador (Google Authenticator, Microsoft Authenticator, FreeOTP…),
          leia o código QR ou digite a chave.
        </Text>
        <Center>
          <QRCodeSVG
            value={otpauthUri}
            size={176}
            marginSize={2}
            title="Código QR para o aplicativo autenticador"
            role="img"
            aria-label="Código QR para o aplicativo autenticador"
            data-testid="totp-qr"
          />
        </Center>
        <Stack gap={4}>
          <Text size="xs" c="dimmed" id="totp-secret-label">
            Chave para digitar no aplicativo
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code
              aria-labelledby="totp-secret-label"
              data-testid="totp-secret"
              style={{ flex: 1, fontSize: 'var(--mantine-font-size-sm)', overflowWrap: 'anywhere' }}
            >
              {groupSecret(secret)}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy} aria-label="Copiar a chave">
                  {copied ? 'Copiada' : 'Copiar'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
        <Text size="sm">2. Digite o código que o aplicativo mostra.</Text>
        {confirm.error && <IdentityErrorAlert error={confirm.error} testId="totp-confirm-error" />}
        <OneTimeCodeInput
          kind="totp"
          value={code}
          onChange={setCode}
          error={problems.code}
          required
        />
        <TextInput
          label="Nome do dispositivo"
          description="Opcional. Ex.: celular pessoal."
          maxLength={60}
          {...textField(label, setLabel)}
          error={problems.label}
        />
        <Group justify="flex-end" gap="xs">
          {actions}
          <Button type="submit" loading={confirm.isPending}>
            Confirmar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
