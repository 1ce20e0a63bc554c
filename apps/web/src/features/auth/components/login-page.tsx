/** Sign-in with e-mail and password. */
import { Button, Center, PasswordInput, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAppState } from '../../../lib/app-store';
import { currentTenant } from '../../../lib/tenant';
import { signIn } from '../api/auth';
import { AuthCard, AuthForm } from './auth-card';
import { ForgotPasswordButton } from './forgot-password';
import { SsoProviderButtons, useSsoRefusal } from './sso-sign-in';
import { UnitSelector } from './unit-selector';
import { textField } from '../../../lib/forms';

/** A unit named by the address (df.localhost) needs no selector. */
const addressUnit = currentTenant().federativeUnit;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function LoginPage() {
  const user = useAppState((state) => state.user);
  const selectedUnit = useAppState((state) => state.federativeUnitSelected);
  const refusal = useSsoRefusal();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);

  const from = (location.state as { from?: string } | null)?.from;
  const destination = from && from !== '/login' ? from : '/home';
  const login = useMutation({
    mutationFn: signIn,
    onSuccess: () => navigate(destination, { replace: true }),
  });
  if (user) return <Navigate to={destination} replace />;

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
      <AuthForm onSubmit={submit} error={login.error ?? refusal} errorTestId="login-error">
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
