/**
 * The tenant comes from the address (spec 2: "if the tenant segment is
 * exactly two characters it is the federative unit (uppercased)"). Two
 * segments are read, in this order:
 *
 * 1. the first segment of the path: `https://exame.gov.br/df/home` is DF, and
 *    the app then lives under `/df` (every screen keeps the prefix);
 * 2. the first label of the host name: `https://df.exame.gov.br/home` is DF.
 *
 * A known unit selects its theme; otherwise (an unknown pair of letters, or no
 * two-letter segment at all) the theme stored locally is used, or the default.
 */
import {
  DEFAULT_THEME,
  findFederativeUnit,
  isThemeName,
  themeOfUnit,
  type ThemeName,
} from '@exame/shared';

export type Tenant = {
  federativeUnit: string | null;
  theme: ThemeName;
  /** The path prefix the app runs under: `/df` for the path form, '' otherwise. */
  basename: string;
};

export type TenantAddress = { hostname: string; pathname?: string };

const TWO_LETTERS = /^[a-z]{2}$/i;

function tenantOf(segment: string, storedTheme: string | null, basename: string): Tenant {
  const uf = segment.toUpperCase();
  const unit = findFederativeUnit(uf);
  const theme = unit ? themeOfUnit(unit) : isThemeName(storedTheme) ? storedTheme : DEFAULT_THEME;
  return { federativeUnit: uf, theme, basename };
}

export function resolveTenant(address: string | TenantAddress, storedTheme: string | null): Tenant {
  const { hostname, pathname = '/' } =
    typeof address === 'string' ? { hostname: address } : address;
  const pathSegment = pathname.split('/')[1] ?? '';
  if (TWO_LETTERS.test(pathSegment)) {
    return tenantOf(pathSegment, storedTheme, `/${pathSegment}`);
  }
  const label = hostname.split('.')[0] ?? '';
  if (TWO_LETTERS.test(label)) return tenantOf(label, storedTheme, '');
  return {
    federativeUnit: null,
    theme: isThemeName(storedTheme) ? storedTheme : DEFAULT_THEME,
    basename: '',
  };
}

/** The tenant of the page the browser is on. */
export function currentTenant(storedTheme: string | null = null): Tenant {
  return resolveTenant(
    { hostname: window.location.hostname, pathname: window.location.pathname },
    storedTheme,
  );
}
