/**
 * The tenant comes from the address (spec 2): when the first label of the host
 * name has exactly two characters it is the federative unit (uppercased) and
 * selects that unit's theme; otherwise the theme stored locally is used, or
 * the default theme.
 */
import {
  DEFAULT_THEME,
  findFederativeUnit,
  isThemeName,
  themeOfUnit,
  type ThemeName,
} from '@exame/shared';

export type Tenant = { federativeUnit: string | null; theme: ThemeName };

export function resolveTenant(hostname: string, storedTheme: string | null): Tenant {
  const label = hostname.split('.')[0] ?? '';
  if (label.length === 2 && /^[a-z]{2}$/i.test(label)) {
    const uf = label.toUpperCase();
    const unit = findFederativeUnit(uf);
    if (unit) return { federativeUnit: uf, theme: themeOfUnit(unit) };
    return { federativeUnit: uf, theme: isThemeName(storedTheme) ? storedTheme : DEFAULT_THEME };
  }
  return { federativeUnit: null, theme: isThemeName(storedTheme) ? storedTheme : DEFAULT_THEME };
}
