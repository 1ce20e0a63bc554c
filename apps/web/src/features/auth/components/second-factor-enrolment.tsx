/**
 * The enrolment a role that requires a second factor asks at sign-in, when
 * the account has none (`multi-factor-enrolment-required`): an authenticator
 * app or a passkey is added with the ticket, the recovery codes are shown
 * once, and "Continuar" opens the session the enrolment returned.
 */
import { Alert, Button, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconDeviceMobile, IconFingerprint } from '@tabler/icons-react';
import { SECOND_FACTOR_LABELS, type AuthUser, type MfaChallenge } from '@exame/shared';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  endingWithTicket,
  enrolmentSetup,
  finishSignIn,
  type EnrolledSignIn,
} from '../api/second-factor';
import { PasskeySetupForm } from './passkey-setup-form';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupForm } from './totp-setup-form';

type Stage = 'choose' | 'totp' | 'passkey';

export function SecondFactorEnrolment({
  challenge,
  message,
  onSignedIn,
  onBack,
}: {
  challenge: MfaChallenge;
  /** The server's explanation of why the sign-in needs it. */
  message: string;
  onSignedIn: (user: AuthUser) => void;
  /** Back to the password form, with the reason when the ticket ended. */
  onBack: (reason: Error | null) => void;
}) {
  const [stage, setStage] = useState<Stage>('choose');
  const [enrolled, setEnrolled] = useState<EnrolledSignIn | null>(null);
  // Made again each render: its query key (the scope) stays the same, so does the secret.
  const setup = endingWithTicket(enrolmentSetup(challenge.ticket), onBack);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [stage]);
  const [passkeys] = useState(browserSupportsWebAuthn);

  const finish = (result: EnrolledSignIn) => onSignedIn(finishSignIn(result.user));
  const confirmed = (result: EnrolledSignIn) => {
    if (result.recoveryCodes.length === 0) finish(result);
    else setEnrolled(result);
  };

  if (enrolled) {
    return (
      <RecoveryCodesPanel
        codes={enrolled.recoveryCodes}
        doneLabel="Continuar"
        onDone={() => finish(enrolled)}
      />
    );
  }

  const back = (
    <Button variant="default" onClick={() => setStage('choose')}>
      Voltar
    </Button>
  );
  return (
    <Stack gap="md" data-testid="second-factor-enrolment">
      <Title order={3} size="h4" ref={heading} tabIndex={-1}>
        {stage === 'choose'
          ? 'Cadastre a verificação em duas etapas'
          : stage === 'totp'
            ? 'Aplicativo autenticador'
            : 'Chave de acesso'}
      </Title>
      {stage === 'choose' && (
        <>
          <Alert color="blue" variant="light">
            {message}
          </Alert>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <ChoiceButton
              icon={<IconDeviceMobile size={22} aria-hidden />}
              title={SECOND_FACTOR_LABELS.totp}
              text="Um código de 6 dígitos no celular."
              onClick={() => setStage('totp')}
            />
            <ChoiceButton
              icon={<IconFingerprint size={22} aria-hidden />}
              title="Chave de acesso"
              text={
                passkeys
                  ? 'A digital, o rosto ou o PIN deste aparelho.'
                  : 'Este navegador não oferece chaves de acesso.'
              }
              disabled={!passkeys}
              onClick={() => setStage('passkey')}
            />
          </SimpleGrid>
          <Button variant="subtle" onClick={() => onBack(null)}>
            Voltar para o login
          </Button>
        </>
      )}
      {stage === 'totp' && <TotpSetupForm setup={setup} onConfirmed={confirmed} actions={back} />}
      {stage === 'passkey' && (
        <PasskeySetupForm setup={setup} onConfirmed={confirmed} actions={back} />
      )}
    </Stack>
  );
}

function ChoiceButton({
  icon,
  title,
  text,
  disabled = false,
  onClick,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <UnstyledButton
      onClick={onClick}
      disabled={disabled}
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-md)',
        opacity: disabled ? 0.6 : 1,
        cursor: disabled ? 'not-allowed' : 'pointer',
      }}
    >
      <Stack gap={4}>
        {icon}
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {text}
        </Text>
      </Stack>
    </UnstyledButton>
  );
}
