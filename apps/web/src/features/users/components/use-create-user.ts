/**
 * Creating a user (by an ADMIN or as a demo user), through `useMutation`: the
 * user lists are refreshed, a taken e-mail or CPF comes back as a field error
 * of the form, anything else as a toast; `submitting` is the mutation's.
 */
import type { CreateUserInput, User } from '@exame/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/toast';
import { ApiError } from '../../../lib/api-client';
import type { FieldErrors } from '../../../lib/forms';
import { createUser, userKeys } from '../api/users';

export type UserFieldErrors = FieldErrors<CreateUserInput>;

export function serverFieldErrors(error: unknown): UserFieldErrors | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'USER_EMAIL_TAKEN') return { email: error.message };
  if (error.code === 'USER_CPF_TAKEN') return { cpf: error.message };
  return null;
}

export function useCreateUser(
  kind: 'admin' | 'demo',
  onCreated: (user: User) => void | Promise<unknown>,
): {
  submit: (input: CreateUserInput) => Promise<UserFieldErrors | undefined>;
  submitting: boolean;
} {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (input: CreateUserInput) => createUser(input, kind),
    onSuccess: async (user) => {
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      await onCreated(user);
    },
  });
  const submit = async (input: CreateUserInput) => {
    try {
      await mutation.mutateAsync(input);
      return undefined;
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) return fields;
      toast.error(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  return { submit, submitting: mutation.isPending };
}
