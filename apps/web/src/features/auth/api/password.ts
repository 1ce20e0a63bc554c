/** Password policy and the password-link calls (spec 7). */
import { DEFAULT_PASSWORD_POLICY, parsePasswordPolicy, type PasswordPolicy } from '@exame/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const passwordPolicyQuery = queryOptions({
  queryKey: ['auth', 'password-policy'],
  queryFn: async (): Promise<PasswordPolicy> => {
    try {
      return parsePasswordPolicy(await api.get<unknown>('api/Auth/password-policy'));
    } catch (error) {
      console.error('[senha] política indisponível; usando a padrão', error);
      return DEFAULT_PASSWORD_POLICY;
    }
  },
  staleTime: 5 * 60_000,
});

type Message = { message: string };

export function requestPasswordReset(value: string): Promise<Message> {
  return api.post<Message>(`api/User/reset/${encodeURIComponent(value.trim())}`);
}

export function requestRegisterLink(value: string): Promise<Message> {
  return api.post<Message>(`api/User/verifyEmail/${encodeURIComponent(value.trim())}`);
}

export function setPasswordWithLink(input: {
  cpf: string;
  token: string;
  password: string;
}): Promise<Message> {
  return api.patch<Message>('api/User/password', input);
}

/** The common-password list is large: it is loaded only when a password form opens. */
export async function loadCommonPasswordCheck(): Promise<(password: string) => boolean> {
  const module = await import('@exame/shared/common-passwords');
  return module.isCommonPassword;
}
