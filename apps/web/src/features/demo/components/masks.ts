/**
 * Typing masks of the demo forms: the birth date as `DD/MM/AAAA` (sent as
 * `YYYY-MM-DD`) and the phone with DDD as `(61) 99999-1234`.
 */

/** `01021990` -> `01/02/1990`; partial input is formatted as far as it goes. */
export function formatBirthDate(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 8)].filter(Boolean).join('/');
}

/**
 * `01/02/1990` -> `1990-02-01`. Incomplete text gives '' (the schema asks
 * for the date); a day that does not exist (31/02) gives null.
 */
export function birthDateToIso(value: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value.trim());
  if (!match) return '';
  const [, day = '', month = '', year = ''] = match;
  const iso = `${year}-${month}-${day}`;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** `61999991234` -> `(61) 99999-1234`; ten digits -> `(61) 3333-1234`. */
export function formatPhone(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 11);
  if (digits.length === 0) return '';
  if (digits.length <= 2) return `(${digits}`;
  const ddd = digits.slice(0, 2);
  const rest = digits.slice(2);
  if (rest.length <= 4) return `(${ddd}) ${rest}`;
  const split = rest.length === 9 ? 5 : 4;
  return `(${ddd}) ${rest.slice(0, split)}-${rest.slice(split)}`;
}
