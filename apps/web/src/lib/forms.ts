/**
 * Helpers of the web forms: text fields bound to state, and validation with
 * the same shared zod schemas as the server (the parsed values, or the first
 * pt-BR message of each field).
 */
import type { ChangeEvent, FormEvent } from 'react';

/** The value and change handler of a text field that keeps its text in `onChange`'s state. */
export function textField(value: string, onChange: (text: string) => void) {
  return {
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value),
  };
}
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

type Issue = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string };

/** What a zod schema offers, written structurally so the web app needs no zod import. */
export type FormSchema<T> = {
  safeParse: (
    value: unknown,
  ) =>
    | { success: true; data: T }
    | { success: false; error: { readonly issues: ReadonlyArray<Issue> } };
};

export type FormValidation<T> = { data: T; errors: null } | { data: null; errors: FieldErrors<T> };

export function validateForm<T>(schema: FormSchema<T>, values: unknown): FormValidation<T> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { data: parsed.data, errors: null };
  const errors: FieldErrors<T> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof T | undefined;
    if (field !== undefined && !errors[field]) errors[field] = issue.message;
  }
  return { data: null, errors };
}

/**
 * A form's submit handler that stays on the page: valid values go to `send`,
 * otherwise each field's message goes to `showErrors`.
 */
export function submitValid<T>(
  validate: () => FormValidation<T>,
  showErrors: (errors: FieldErrors<T>) => void,
  send: (data: T) => void,
) {
  return (event: FormEvent) => {
    event.preventDefault();
    const { data, errors } = validate();
    if (errors) showErrors(errors);
    else if (data !== null) send(data);
  };
}
