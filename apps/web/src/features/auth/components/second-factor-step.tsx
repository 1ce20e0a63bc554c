/**
 * The login's second step, after a right password of an account with a
 * second factor (`multi-factor-auth-required`): the authenticator app's
 * code, a passkey, or a recovery code finish the sign-in with the ticket. A
 * wrong code can be typed again; a ticket that is no longer valid goes back
 * to the password form with the reason.
 */
import { Anchor, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { AuthUser, MfaChallenge } from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { codeProblem, OneTimeCodeInput } from '../../../components/one-time-code-input';
import { ApiError } from '../../../lib/api-client';
import { verifySecondFactor, verifyWithPasskey, type CodeMethod } from '../api/second-factor';
import { AuthForm } from './auth-card';

/** The answers after which this ticket is spent: the sign-in starts over. */
function endsTicket(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'mfa-ticket-invalid';
}

export function SecondFactorStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: MfaChallenge;
  onSignedIn: (user: AuthUser) => void;
  /** Back to the password form, with the reason when the ticket ended. */
  onBack: (reason: Error | null) => void;
}) {
  const canUseApp = challenge.methods.includes('totp');
  const [method, setMethod] = useState<CodeMethod>(canUseApp ? 'totp' : 'recovery');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const settle = {
    onSuccess: onSignedIn,
    onError: (error: Error) => {
      if (endsTicket(error)) onBack(error);
      setCode('');
    },
  };
  const verify = useMutation({ mutationFn: verifySecondFactor, ...settle });
  const passkey = useMutation({ mutationFn: verifyWithPasskey, ...settle });
  const error = verify.error ?? passkey.error;
  const busy = verify.isPending || passkey.isPending;

  const switchTo = (next: CodeMethod) => {
    setMethod(next);
    setCode('');
    setProblem(null);
    verify.reset();
    passkey.reset();
    input.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = codeProblem(method, code);
    setProblem(found);
    if (found) return;
    passkey.reset();
    verify.mutate({ ticket: challenge.ticket, method, code: code.replace(/\s/g, '') });
  };

  return (
    <Stack gap="md" data-testid="second-factor-step">
      <div>
        <Title order={3} size="h4" ref={heading} tabIndex={-1}>
          Verificação em duas etapas
        </Title>
        <Text size="sm" c="dimmed">
          {method === 'totp'
            ? 'Abra o aplicativo autenticador e digite o código de 6 dígitos desta conta.'
            : 'Digite um dos códigos de recuperação que você guardou. Cada um funciona uma vez.'}
        </Text>
      </div>
      <AuthForm onSubmit={submit} error={error} errorTestId="second-factor-error">
        <OneTimeCodeInput
          ref={input}
          kind={method}
          value={code}
          onChange={setCode}
          error={problem}
          required
        />
        <Button type="submit" loading={verify.isPending} disabled={passkey.isPending} fullWidth>
          Confirmar
        </Button>
      </AuthForm>
      {challenge.methods.includes('passkey') && (
        <>
          <Divider label="ou" labelPosition="center" />
          <Button
            variant="default"
            leftSection={<IconFingerprint size={16} />}
            loading={passkey.isPending}
            disabled={verify.isPending}
            onClick={() => {
              verify.reset();
              passkey.mutate(challenge.ticket);
            }}
            fullWidth
          >
            Usar chave de acesso
          </Button>
        </>
      )}
      <Group justify="space-between" gap="xs">
        <Button variant="subtle" onClick={() => onBack(null)} disabled={busy} px={0}>
          Voltar
        </Button>
        {method === 'totp' ? (
          <Anchor component="button" type="button" size="sm" onClick={() => switchTo('recovery')}>
            Usar um código de recuperação
          </Anchor>
        ) : (
          canUseApp && (
            <Anchor component="button" type="button" size="sm" onClick={() => switchTo('totp')}>
              Usar o aplicativo autenticador
            </Anchor>
          )
        )}
      </Group>
    </Stack>
  );
}
