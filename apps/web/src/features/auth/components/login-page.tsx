/**
 * Sign-in with e-mail and password; an account with a second factor then
 * confirms it (second-factor-step.tsx), and one whose role requires a factor
 * it lacks enrols it first (second-factor-enrolment.tsx, loaded on demand).
 */
import { Button, Center, PasswordInput, TextInput } from '@mantine/core';
import type { MfaChallenge } from '@exame/shared';
import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { toast } from '../../../components/toast';
import { useAppState } from '../../../lib/app-store';
import { clearProviderReauth, readProviderReauth } from '../../../lib/reauth';
import { currentTenant } from '../../../lib/tenant';
import { signIn } from '../api/auth';
import { mfaChallengeOf } from '../api/second-factor';
import { AuthCard, AuthForm } from './auth-card';
import { ForgotPasswordButton } from './forgot-password';
import { SecondFactorStep } from './second-factor-step';
import { SsoProviderButtons, useSsoRefusal } from './sso-sign-in';
import { UnitSelector } from './unit-selector';
import { textField } from '../../../lib/forms';
import { LoadingSpinner } from '../../../components/loading-spinner';

/** A unit named by the address (df.localhost) needs no selector. */
const addressUnit = currentTenant().federativeUnit;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// The QR code and the passkey library come only to who has to enrol.
const SecondFactorEnrolment = lazy(() =>
  import('./second-factor-enrolment').then((module) => ({
    default: module.SecondFactorEnrolment,
  })),
);

/** The second step a right password led to, with the server's explanation. */
type PendingSignIn = { challenge: MfaChallenge; message: string };

export function LoginPage() {
  const user = useAppState((state) => state.user);
  const selectedUnit = useAppState((state) => state.federativeUnitSelected);
  const refusal = useSsoRefusal();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  // Why a second step sent the person back here (its ticket ended).
  const [backReason, setBackReason] = useState<Error | null>(null);

  const from = (location.state as { from?: string } | null)?.from;
  const destination = from && from !== '/login' ? from : '/home';
  const signedIn = () => navigate(destination, { replace: true });
  const login = useMutation({
    mutationFn: signIn,
    onMutate: () => setBackReason(null),
    onSuccess: signedIn,
    onError: (error) => {
      const challenge = mfaChallengeOf(error);
      if (challenge) setPending({ challenge, message: error.message });
    },
  });
  // A proof through the provider that failed lands here signed in: back to the page that asked, with the reason.
  const [proof] = useState(() => (user ? readProviderReauth() : null));
  useEffect(() => {
    if (!proof) return;
    clearProviderReauth();
    if (refusal) toast.error(refusal.message);
  }, [proof, refusal]);
  if (user) return <Navigate to={proof?.returnTo ?? destination} replace />;

  const backToPassword = (reason: Error | null) => {
    setPending(null);
    setBackReason(reason);
    setPassword('');
    setTouched(false);
    login.reset();
  };

  if (pending) {
    return (
      <AuthCard title="Entrar" subtitle="Administração e auditoria do exame teórico" width={420}>
        {pending.challenge.enrolment ? (
          <Suspense fallback={<LoadingSpinner size="sm" mx="auto" label="Carregando" />}>
            <SecondFactorEnrolment
              challenge={pending.challenge}
              message={pending.message}
              onSignedIn={signedIn}
              onBack={backToPassword}
            />
          </Suspense>
        ) : (
          <SecondFactorStep
            challenge={pending.challenge}
            onSignedIn={signedIn}
            onBack={backToPassword}
          />
        )}
      </AuthCard>
    );
  }

  const emailError = touched && !EMAIL.test(email.trim()) ? 'Informe um e-mail válido.' : null;
  const passwordError = touched && password === '' ? 'Informe a senha.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!EMAIL.test(email.trim()) || password === '') return;
    login.mutate({ email: email.trim(), password });
  };

  return (
    <AuthCard title="Entrar" subtitle="Administração e auditoria do exame teórico" width={400}>
      <AuthForm
        onSubmit={submit}
        error={backReason ?? login.error ?? refusal}
        errorTestId="login-error"
      >
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          {...textField(email, setEmail)}
          error={emailError}
          required
          autoFocus
        />
        <PasswordInput
          label="Senha"
          autoComplete="current-password"
          {...textField(password, setPassword)}
          error={passwordError}
          required
        />
        <Button type="submit" loading={login.isPending} fullWidth>
          Entrar
        </Button>
        <Center>
          <ForgotPasswordButton variant="link" />
        </Center>
        <SsoProviderButtons unit={addressUnit ?? selectedUnit} />
        {!addressUnit && <UnitSelector />}
      </AuthForm>
    </AuthCard>
  );
}
