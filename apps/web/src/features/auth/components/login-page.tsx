/** Sign-in with e-mail and password. */
import {
  Alert,
  Button,
  Center,
  Image,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useAppState } from '../../../lib/app-store';
import { logoUrl } from '../../../lib/themes';
import { signIn } from '../api/auth';
import { identityErrorMessage } from '../identity-errors';
import { ForgotPasswordButton } from './forgot-password';
import { UnitSelector } from './unit-selector';
import { currentTenant } from '../../../lib/tenant';

/** A unit named by the address (df.localhost) needs no selector. */
const addressUnit = currentTenant().federativeUnit;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function LoginPage() {
  const user = useAppState((state) => state.user);
  const theme = useAppState((state) => state.theme);
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const from = (location.state as { from?: string } | null)?.from;
  if (user) return <Navigate to={from && from !== '/login' ? from : '/home'} replace />;

  const emailError = touched && !EMAIL.test(email.trim()) ? 'Informe um e-mail válido.' : null;
  const passwordError = touched && password === '' ? 'Informe a senha.' : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!EMAIL.test(email.trim()) || password === '') return;
    setSubmitting(true);
    setError(null);
    try {
      await signIn({ email: email.trim(), password });
      await navigate(from && from !== '/login' ? from : '/home', { replace: true });
    } catch (caught) {
      setError(
        caught instanceof ApiError
          ? identityErrorMessage(caught.code, caught.message)
          : String(caught),
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" radius="lg" w="100%" maw={400}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Image src={logoUrl(theme)} h={56} w="auto" fit="contain" alt="Exame Teórico" />
            <div>
              <Title order={2} size="h3">
                Entrar
              </Title>
              <Text size="sm" c="dimmed">
                Administração e auditoria do exame teórico
              </Text>
            </div>
            {error && (
              <Alert
                color="red"
                icon={<IconAlertCircle size={18} />}
                role="alert"
                data-testid="login-error"
              >
                {error}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={emailError}
              required
              autoFocus
            />
            <PasswordInput
              label="Senha"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={passwordError}
              required
            />
            <Button type="submit" loading={submitting} fullWidth>
              Entrar
            </Button>
            <Center>
              <ForgotPasswordButton variant="link" />
            </Center>
            {!addressUnit && <UnitSelector />}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
