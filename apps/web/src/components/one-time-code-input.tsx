/**
 * The field of a second-factor code: the 6 digits of an authenticator app
 * (numeric keyboard, the browser's one-time-code autofill) or a recovery
 * code (letters and digits). Used at sign-in, when a factor is added and in
 * the re-authentication dialog.
 */
import { TextInput, type TextInputProps } from '@mantine/core';
import { TOTP_DIGITS } from '@exame/shared';
import { textField } from '../lib/forms';

export type CodeKind = 'totp' | 'recovery' | 'any';

const LABELS: Record<CodeKind, string> = {
  totp: 'Código do aplicativo autenticador',
  recovery: 'Código de recuperação',
  any: 'Código do aplicativo autenticador ou de recuperação',
};

/** The pt-BR problem of a typed code, or null when it can be sent. */
export function codeProblem(kind: CodeKind, code: string): string | null {
  const clean = code.replace(/\s/g, '');
  if (clean === '') return 'Informe o código.';
  if (kind === 'totp' && !new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(clean))
    return `Informe os ${TOTP_DIGITS} dígitos do código.`;
  return null;
}

/** What a typed code is: 6 digits are the app's, anything else a recovery code. */
export function codeMethodOf(code: string): 'totp' | 'recovery' {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, '')) ? 'totp' : 'recovery';
}

export function OneTimeCodeInput({
  kind,
  value,
  onChange,
  ...props
}: {
  kind: CodeKind;
  value: string;
  onChange: (code: string) => void;
} & Omit<TextInputProps, 'value' | 'onChange' | 'label'>) {
  const numeric = kind === 'totp';
  return (
    <TextInput
      label={LABELS[kind]}
      autoComplete={numeric ? 'one-time-code' : 'off'}
      inputMode={numeric ? 'numeric' : 'text'}
      maxLength={numeric ? TOTP_DIGITS : 40}
      spellCheck={false}
      autoCapitalize="off"
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: 2 } }}
      description={numeric ? `Os ${TOTP_DIGITS} dígitos que o aplicativo mostra agora.` : undefined}
      {...props}
      {...textField(value, onChange)}
    />
  );
}
