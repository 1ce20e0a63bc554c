/** The three visual themes; the name prefixes the favicon and logo files. */
export const THEME_NAMES = ['default-theme', 'valid-theme', 'valid-df-theme'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const DEFAULT_THEME: ThemeName = 'default-theme';

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}
