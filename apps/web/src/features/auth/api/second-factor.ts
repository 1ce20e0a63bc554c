/**
 * The second factor of a sign-in (`api/Auth/mfa/...`, public, authenticated
 * by the ticket of a `multi-factor-*-required` answer) and the signed-in
 * account's own factors (`api/Auth/factors`, `api/Auth/recovery-codes`).
 * Every answer is read with the shared schemas. The browser's side of a
 * passkey (`@simplewebauthn/browser`) is loaded only when one is used, so
 * the sign-in page's first load does not carry it.
 */
import {
  authUserSchema,
  enrolledSignInSchema,
  factorAddedSchema,
  mfaChallengeSchema,
  recoveryCodesSchema,
  secondFactorStatusSchema,
  totpSetupSchema,
  type AuthUser,
  type FactorConfirmation,
  type MfaChallenge,
  type TotpSetup,
} from '@exame/shared';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { ApiError } from '../../../lib/api-client';
import { appStore } from '../../../lib/app-store';
import { createPasskey, signWithPasskey } from '../../../lib/passkeys';

export type CodeMethod = 'totp' | 'recovery';
/** What a finished enrolment at sign-in gives: the session, and the codes to write down first. */
export type EnrolledSignIn = { user: AuthUser; recoveryCodes: string[] };
export type FactorAdded = z.infer<typeof factorAddedSchema>;

const MFA_CODES = ['multi-factor-auth-required', 'multi-factor-enrolment-required'];

/** The pending sign-in a refused password sign-in carries, or null for any other failure. */
export function mfaChallengeOf(error: unknown): MfaChallenge | null {
  if (!(error instanceof ApiError) || !MFA_CODES.includes(error.code ?? '')) return null;
  const parsed = mfaChallengeSchema.safeParse(error.mfa);
  return parsed.success ? parsed.data : null;
}

/** Opens the session a second step gave (the same as a password sign-in does). */
export function finishSignIn(user: AuthUser): AuthUser {
  const session = authUserSchema.parse(user);
  appStore.setUser(session);
  return session;
}

/* ------------------------------------------------------------------ sign-in, step 2 */

export async function verifySecondFactor(input: {
  ticket: string;
  method: CodeMethod;
  code: string;
}): Promise<AuthUser> {
  return finishSignIn(authUserSchema.parse(await api.post<unknown>('api/Auth/mfa/verify', input)));
}

export async function verifyWithPasskey(ticket: string): Promise<AuthUser> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>(
    'api/Auth/mfa/passkey/options',
    { ticket },
  );
  const credential = await signWithPasskey(optionsJSON);
  const answer = await api.post<unknown>('api/Auth/mfa/passkey', { ticket, credential });
  return finishSignIn(authUserSchema.parse(answer));
}

/* ------------------------------------------------------------------ adding a factor */

/**
 * Where a new factor is made: at sign-in with an enrolment ticket, or by the
 * signed-in account. The screens that add one take it as a parameter.
 */
export type FactorSetupApi<Result> = {
  /** Names the set-up in the query cache: a new scope, a new secret. */
  scope: readonly unknown[];
  startTotp: () => Promise<TotpSetup>;
  passkeyOptions: () => Promise<PublicKeyCredentialCreationOptionsJSON>;
  confirm: (confirmation: FactorConfirmation) => Promise<Result>;
};

/** Makes a passkey with the browser and confirms it through `setup`. */
export async function addPasskey<Result>(
  setup: FactorSetupApi<Result>,
  label: string | undefined,
): Promise<Result> {
  const credential = await createPasskey(await setup.passkeyOptions());
  return setup.confirm({
    method: 'passkey',
    credential: credential as unknown as Record<string, unknown>,
    label,
  });
}

/** The enrolment a `multi-factor-enrolment-required` ticket allows; the session opens only at the end. */
export function enrolmentSetup(ticket: string): FactorSetupApi<EnrolledSignIn> {
  return {
    scope: ['auth', 'mfa-enrolment', ticket],
    startTotp: async () =>
      totpSetupSchema.parse(await api.post<unknown>('api/Auth/mfa/enrol/totp', { ticket })),
    passkeyOptions: () =>
      api.post<PublicKeyCredentialCreationOptionsJSON>('api/Auth/mfa/enrol/passkey/options', {
        ticket,
      }),
    confirm: async (confirmation) => {
      const { recoveryCodes, ...user } = enrolledSignInSchema.parse(
        await api.post<unknown>('api/Auth/mfa/enrol', { ticket, ...confirmation }),
      );
      return { user, recoveryCodes: recoveryCodes ?? [] };
    },
  };
}

/**
 * The same set-up, calling `end` when the server says the ticket is no
 * longer valid (expired, or spent by wrong codes): the sign-in starts over.
 */
export function endingWithTicket<Result>(
  setup: FactorSetupApi<Result>,
  end: (reason: ApiError) => void,
): FactorSetupApi<Result> {
  const watch =
    <Args extends unknown[], Value>(call: (...args: Args) => Promise<Value>) =>
    async (...args: Args): Promise<Value> => {
      try {
        return await call(...args);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'mfa-ticket-invalid') end(error);
        throw error;
      }
    };
  return {
    scope: setup.scope,
    startTotp: watch(setup.startTotp),
    passkeyOptions: watch(setup.passkeyOptions),
    confirm: watch(setup.confirm),
  };
}

/** A factor more for the signed-in account (`api/Auth/factors`). */
export function accountFactorSetup(attempt: number): FactorSetupApi<FactorAdded> {
  return {
    scope: ['auth', 'factor-setup', attempt],
    startTotp: async () => totpSetupSchema.parse(await api.post<unknown>('api/Auth/factors/totp')),
    passkeyOptions: () =>
      api.post<PublicKeyCredentialCreationOptionsJSON>('api/Auth/factors/passkey/options'),
    confirm: async (confirmation) =>
      factorAddedSchema.parse(await api.post<unknown>('api/Auth/factors', confirmation)),
  };
}

/* ------------------------------------------------------------------ the account's factors */

export const secondFactorsQuery = queryOptions({
  queryKey: ['auth', 'factors'],
  queryFn: async ({ signal }) =>
    secondFactorStatusSchema.parse(await api.get<unknown>('api/Auth/factors', { signal })),
});

export function removeSecondFactor(id: string): Promise<unknown> {
  return api.delete<unknown>(`api/Auth/factors/${encodeURIComponent(id)}`);
}

/** A new set of recovery codes; the old ones stop working. */
export async function regenerateRecoveryCodes(): Promise<string[]> {
  return recoveryCodesSchema.parse(await api.post<unknown>('api/Auth/recovery-codes')).codes;
}
