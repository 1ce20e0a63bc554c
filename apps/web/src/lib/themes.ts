/**
 * The three visual themes: Mantine colours, the logo and the favicon. The
 * theme name prefixes the image files in `public/` (spec 3).
 */
import {
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import { THEME_NAMES, type ThemeName } from '@exame/shared';

type ThemeDefinition = {
  label: string;
  palette: MantineColorsTuple;
};

const DEFINITIONS: Record<ThemeName, ThemeDefinition> = {
  'default-theme': {
    label: 'Padrão',
    palette: [
      '#e7f0ff',
      '#cfdefc',
      '#9dbaf5',
      '#6894ef',
      '#3d74ea',
      '#2360e8',
      '#1456e8',
      '#0547cf',
      '#003fba',
      '#0036a5',
    ],
  },
  'valid-theme': {
    label: 'Ceará',
    palette: [
      '#e0fbf8',
      '#cdf3ee',
      '#9fe6dc',
      '#6dd8c9',
      '#46ccb9',
      '#2ec5ae',
      '#1cc1a9',
      // From here on, dark enough for white text and for text on white (WCAG AA 4.5:1).
      '#00705f',
      '#005f50',
      '#004d41',
    ],
  },
  'valid-df-theme': {
    label: 'Distrito Federal',
    palette: [
      '#e8faef',
      '#d6f1e0',
      '#aee2c1',
      '#82d39f',
      '#5ec682',
      '#47be70',
      '#39ba66',
      // From here on, dark enough for white text and for text on white (WCAG AA 4.5:1).
      '#0a6e35',
      '#085e2d',
      '#064d25',
    ],
  },
};

export const THEMES = THEME_NAMES;

const CLEAR_BUTTON = { 'aria-label': 'Limpar' };
const CLOSE_DIALOG = { 'aria-label': 'Fechar' };
const CLOSE_NOTICE = { 'aria-label': 'Fechar aviso' };

/**
 * Error text (a field's message, its border): Mantine's red 6 reads 3.3:1 on
 * white; red 9 reads 5.5:1 (WCAG AA asks 4.5:1).
 */
export const ERROR_TEXT_COLOR = '#c92a2a';

/** Placeholders are text too: Mantine's gray 5 reads 2.1:1 on white, this 4.7:1. */
export const PLACEHOLDER_COLOR = '#6c757d';

/**
 * Text of the `light` variants (badges, light buttons, alerts) one step darker
 * than Mantine's, so that it reads at least 4.5:1 on its tinted background.
 */
export const LIGHT_VARIANT_TEXT: Readonly<Record<string, string>> = {
  gray: '#495057',
  red: '#b02525',
  pink: '#a61e4d',
  grape: '#862e9c',
  violet: '#5f3dc4',
  indigo: '#364fc7',
  blue: '#1864ab',
  cyan: '#0b6775',
  teal: '#06694b',
  green: '#1f6b30',
  lime: '#466e0a',
  yellow: '#7a4d00',
  orange: '#9c3508',
};

/**
 * The `filled` variants (white text on the colour: buttons, badges, the
 * alert modal's red action) and the colour as text on white (`c="red"`,
 * outline buttons), for the colours whose Mantine shade 7 reads under 4.5:1
 * with white (red 3.8:1, teal 3.1:1, yellow 2.1:1): a shade that reads at
 * least 5:1, and a darker one on hover. The other colours pass as they are.
 */
export const FILLED_COLORS: Readonly<Record<string, { filled: string; hover: string }>> = {
  red: { filled: '#c92a2a', hover: '#b02525' },
  blue: { filled: '#1971c2', hover: '#1864ab' },
  cyan: { filled: '#0b7285', hover: '#0b6775' },
  teal: { filled: '#087f5b', hover: '#06694b' },
  green: { filled: '#2b7a38', hover: '#1f6b30' },
  lime: { filled: '#4f7a0c', hover: '#466e0a' },
  yellow: { filled: '#8a5a00', hover: '#7a4d00' },
  orange: { filled: '#c2410c', hover: '#9c3508' },
};

const PAGINATION_CONTROL_LABELS = {
  first: 'Primeira página',
  previous: 'Página anterior',
  next: 'Próxima página',
  last: 'Última página',
} as const;

/**
 * Secondary ("dimmed") text darker than Mantine's default gray, which reads
 * 3.3:1 on white: this one reads 6:1 (WCAG AA asks 4.5:1), in every theme;
 * the same for the error red, placeholders, and the filled and light variants.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': ERROR_TEXT_COLOR,
    '--mantine-color-placeholder': PLACEHOLDER_COLOR,
    ...Object.fromEntries(
      Object.entries(FILLED_COLORS).flatMap(([color, { filled, hover }]) => [
        [`--mantine-color-${color}-filled`, filled],
        [`--mantine-color-${color}-filled-hover`, hover],
        [`--mantine-color-${color}-outline`, filled],
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(LIGHT_VARIANT_TEXT).map(([color, text]) => [
        `--mantine-color-${color}-light-color`,
        text,
      ]),
    ),
    '--mantine-color-brand-light-color': 'var(--mantine-color-brand-9)',
  },
  dark: {},
});

/** A scrolling area whose viewport takes the focus, so the arrow keys scroll it. */
const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };

export function mantineThemeFor(name: ThemeName): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 7,
    colors: { brand: DEFINITIONS[name].palette },
    fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    defaultRadius: 'md',
    components: {
      Tooltip: { defaultProps: { offset: 12, zIndex: 9999 } },
      // A wide table scrolls sideways: its viewport takes the focus, so the
      // arrow keys scroll it (WCAG 2.1.1, axe scrollable-region-focusable).
      TableScrollContainer: { defaultProps: { scrollAreaProps: FOCUSABLE_SCROLL } },
      // The clear (×) button of every clearable field has a name.
      Select: { defaultProps: { clearButtonProps: CLEAR_BUTTON } },
      MultiSelect: { defaultProps: { clearButtonProps: CLEAR_BUTTON } },
      DatePickerInput: { defaultProps: { clearButtonProps: CLEAR_BUTTON } },
      // The × of dialogs, drawers, toasts and alerts is an icon: it gets a name.
      Modal: { defaultProps: { closeButtonProps: CLOSE_DIALOG } },
      Drawer: { defaultProps: { closeButtonProps: CLOSE_DIALOG } },
      Notification: { defaultProps: { closeButtonProps: CLOSE_NOTICE } },
      Alert: { defaultProps: { closeButtonLabel: CLOSE_NOTICE['aria-label'] } },
      // Icon-only page controls get names a screen reader can say.
      Pagination: {
        defaultProps: {
          getControlProps: (control: 'first' | 'previous' | 'next' | 'last') => ({
            'aria-label': PAGINATION_CONTROL_LABELS[control],
          }),
          getItemProps: (page: number) => ({ 'aria-label': `Página ${page}` }),
        },
      },
    },
  });
}

export function themeLabel(name: ThemeName): string {
  return DEFINITIONS[name].label;
}

export function logoUrl(name: ThemeName): string {
  return `/${name}-logo.svg`;
}

export function faviconUrl(name: ThemeName): string {
  return `/${name}-favicon.svg`;
}

/** Points the page's favicon at the theme's file. */
export function applyFavicon(name: ThemeName, doc: Document = document): void {
  let link = doc.querySelector<HTMLLinkElement>('link#app-favicon');
  if (!link) {
    link = doc.createElement('link');
    link.id = 'app-favicon';
    link.rel = 'icon';
    link.type = 'image/svg+xml';
    doc.head.appendChild(link);
  }
  link.href = faviconUrl(name);
}
