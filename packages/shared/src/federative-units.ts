/**
 * The federative units (Brazilian states, the Federal District and the DEMO
 * unit used for demonstrations). Spec sections 1 and 9: active units, the one
 * unit without proctoring, and the theme of each unit.
 */
import { z } from 'zod';
import { DEFAULT_THEME, isThemeName, type ThemeName } from './themes';

export const federativeUnitSchema = z.object({
  name: z.string(),
  uf: z.string(),
  isActive: z.boolean(),
  isProctoringEnable: z.boolean(),
  theme: z.string().nullable(),
});
export type FederativeUnit = z.infer<typeof federativeUnitSchema>;

const UNIT_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['AC', 'Acre'],
  ['AL', 'Alagoas'],
  ['AP', 'Amapá'],
  ['AM', 'Amazonas'],
  ['BA', 'Bahia'],
  ['CE', 'Ceará'],
  ['DF', 'Distrito Federal'],
  ['ES', 'Espírito Santo'],
  ['GO', 'Goiás'],
  ['MA', 'Maranhão'],
  ['MT', 'Mato Grosso'],
  ['MS', 'Mato Grosso do Sul'],
  ['MG', 'Minas Gerais'],
  ['PA', 'Pará'],
  ['PB', 'Paraíba'],
  ['PR', 'Paraná'],
  ['PE', 'Pernambuco'],
  ['PI', 'Piauí'],
  ['RJ', 'Rio de Janeiro'],
  ['RN', 'Rio Grande do Norte'],
  ['RS', 'Rio Grande do Sul'],
  ['RO', 'Rondônia'],
  ['RR', 'Roraima'],
  ['SC', 'Santa Catarina'],
  ['SP', 'São Paulo'],
  ['SE', 'Sergipe'],
  ['TO', 'Tocantins'],
  ['DEMO', 'Demonstração'],
];

export const ACTIVE_UNITS: readonly string[] = ['SP', 'DEMO', 'CE', 'DF', 'MA', 'PB', 'PE'];
export const PROCTORING_DISABLED_UNITS: readonly string[] = ['CE'];
const UNIT_THEMES: Readonly<Record<string, ThemeName>> = {
  CE: 'valid-theme',
  DF: 'valid-df-theme',
};

export const FEDERATIVE_UNITS: readonly FederativeUnit[] = UNIT_NAMES.map(([uf, name]) => ({
  name,
  uf,
  isActive: ACTIVE_UNITS.includes(uf),
  isProctoringEnable: !PROCTORING_DISABLED_UNITS.includes(uf),
  theme: UNIT_THEMES[uf] ?? DEFAULT_THEME,
}));

export const FEDERATIVE_UNIT_CODES = FEDERATIVE_UNITS.map((unit) => unit.uf);

export function findFederativeUnit(uf: string): FederativeUnit | undefined {
  const wanted = uf.toUpperCase();
  return FEDERATIVE_UNITS.find((unit) => unit.uf === wanted);
}

/** The theme a unit selects: its own, or the default theme when it has none. */
export function themeOfUnit(unit: Pick<FederativeUnit, 'theme'> | undefined): ThemeName {
  const theme = unit?.theme;
  return isThemeName(theme) ? theme : DEFAULT_THEME;
}
