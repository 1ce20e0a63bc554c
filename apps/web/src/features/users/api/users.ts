/** The users API (spec 7): query keys live in these factories only. */
import type { CreateUserInput, RegisterStatus, Role, User, UserPage } from '@exame/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export type UserListParams = { page: number; pageSize: number; search: string };

export const userKeys = {
  all: ['users'] as const,
  list: (params: UserListParams) => ['users', 'list', params] as const,
};

export function userListQuery(params: UserListParams) {
  return queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) =>
      api.get<UserPage>('api/User', {
        query: { page: params.page, pageSize: params.pageSize, search: params.search || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function createUser(
  input: CreateUserInput,
  kind: 'admin' | 'demo' = 'admin',
): Promise<User> {
  return api.post<User>(kind === 'demo' ? 'api/User' : 'api/User/admin', input);
}

export function setRegisterStatus(id: string, registerStatus: RegisterStatus): Promise<User> {
  return api.put<User>(`api/User/${id}/enableDisable`, { registerStatus });
}

/** Clears a user's second factors (lost phone and recovery codes); a sensitive action. */
export function resetSecondFactor(id: string): Promise<void> {
  return api.delete<void>(`api/User/${id}/factors`);
}

export function changeRole(id: string, role: Role): Promise<User> {
  return api.put<User>(`api/User/${id}/role`, { role });
}
