/**
 * `/reset-password/:cpf` and `/register-password/:cpf`: set a password with
 * the link received by e-mail (the token comes in the address fragment). The
 * token is read once and the fragment is cleared from the address bar, so it
 * does not stay in the history, a screenshot or a shared address. The policy
 * checklist updates live; the server applies the same rules.
 */
import { Alert, Anchor, Button, PasswordInput } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { maskCpf, validatePassword } from '@exame/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { loadCommonPasswordCheck, passwordPolicyQuery, setPasswordWithLink } from '../api/password';
import { isAccountDisabled } from '../identity-errors';
import { AuthCard, AuthForm, IdentityErrorAlert } from './auth-card';
import { ForgotPasswordButton } from './forgot-password';
import { PasswordChecklist } from './password-checklist';
import { textField } from '../../../lib/forms';

export function tokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  return token && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : null;
}

export function PasswordPage({ purpose }: { purpose: 'reset' | 'register' }) {
  const { cpf = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the address loses its fragment right after.
  const [token] = useState(() => tokenFromHash(location.hash));
  useEffect(() => {
    if (location.hash.includes('token=')) {
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
    }
  }, [location.hash, location.pathname, location.search, navigate]);
  const policy = useQuery(passwordPolicyQuery);
  const [isCommon, setIsCommon] = useState<((password: string) => boolean) | null>(null);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const save = useMutation({
    mutationFn: setPasswordWithLink,
    onError: (error) => {
      // Spec 8: the policy may have changed on the server; read it again.
      if (error instanceof ApiError && error.code === 'password-does-not-meet-requirements') {
        void policy.refetch();
      }
    },
  });
  const done = save.data?.message ?? null;

  // The list (about 1 MB) is fetched only when there is a form to type a password in.
  const hasForm = token !== null;
  useEffect(() => {
    if (!hasForm) return;
    let active = true;
    loadCommonPasswordCheck()
      .then((check) => active && setIsCommon(() => check))
      .catch((caught: unknown) =>
        console.error('[senha] lista de senhas comuns indisponível', caught),
      );
    return () => {
      active = false;
    };
  }, [hasForm]);

  const validation = useMemo(
    () =>
      policy.data
        ? validatePassword(policy.data, password, isCommon ? { isCommonPassword: isCommon } : {})
        : null,
    [policy.data, password, isCommon],
  );
  const mismatch = confirmation !== '' && confirmation !== password;
  const title = purpose === 'register' ? 'Cadastrar senha' : 'Redefinir senha';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token || !validation?.isValid || password !== confirmation) return;
    save.mutate({ cpf, token, password });
  };

  return (
    <AuthCard title={title} subtitle={`CPF ${maskCpf(cpf)}`} width={440}>
      {done ? (
        <>
          <Alert color="teal" icon={<IconCircleCheck size={18} />} role="status">
            {done}
          </Alert>
          <Button component={Link} to="/login">
            Ir para o login
          </Button>
        </>
      ) : isAccountDisabled(save.error) ? (
        // The link was valid, the account is disabled: no password to type until it is enabled.
        <>
          <IdentityErrorAlert error={save.error} testId="password-error" />
          <Button component={Link} to="/login" variant="default">
            Voltar ao login
          </Button>
        </>
      ) : !token ? (
        <>
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            Este link está incompleto ou é inválido. Use o link mais recente enviado para o seu
            e-mail ou solicite um novo.
          </Alert>
          <ForgotPasswordButton purpose={purpose} initialValue={cpf} />
        </>
      ) : (
        <AuthForm onSubmit={submit} error={save.error} errorTestId="password-error">
          <PasswordInput
            label="Nova senha"
            autoComplete="new-password"
            {...textField(password, setPassword)}
            required
            autoFocus
          />
          {validation && <PasswordChecklist criteria={validation.criteria} />}
          <PasswordInput
            label="Confirme a nova senha"
            autoComplete="new-password"
            {...textField(confirmation, setConfirmation)}
            error={mismatch ? 'As senhas não conferem.' : null}
            required
          />
          <Button
            type="submit"
            loading={save.isPending}
            disabled={!validation?.isValid || confirmation !== password}
            fullWidth
          >
            Salvar senha
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Voltar ao login
          </Anchor>
        </AuthForm>
      )}
    </AuthCard>
  );
}
