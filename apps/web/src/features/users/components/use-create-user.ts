/**
 * Creating a user (by an ADMIN or as a demo user), through `useMutation`: the
 * user lists are refreshed, a taken e-mail or CPF comes back as a field error
 * of the form, anything else as a toast.
 */
import type { CreateUserInput, User } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import { createUser, userKeys } from '../api/users';

export type UserFieldErrors = Partial<Record<keyof CreateUserInput, string>>;

export function serverFieldErrors(error: unknown): UserFieldErrors | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'USER_EMAIL_TAKEN') return { email: error.message };
  if (error.code === 'USER_CPF_TAKEN') return { cpf: error.message };
  return null;
}

export function useCreateUser(
  kind: 'admin' | 'demo',
  onCreated: (user: User) => void | Promise<unknown>,
): (input: CreateUserInput) => Promise<UserFieldErrors | undefined> {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (input: CreateUserInput) => createUser(input, kind),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
  return async (input) => {
    try {
      await onCreated(await mutation.mutateAsync(input));
      return undefined;
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) return fields;
      toast.error(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
}
