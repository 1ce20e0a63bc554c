/**
 * The three visual themes: Mantine colours, the logo and the favicon. The
 * theme name prefixes the image files in `public/` (spec 3).
 */
import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
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
      '#00aa94',
      '#009783',
      '#008370',
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
      '#2aa355',
      '#1f914a',
      '#0b7e3d',
    ],
  },
};

export const THEMES = THEME_NAMES;

export function mantineThemeFor(name: ThemeName): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 7,
    colors: { brand: DEFINITIONS[name].palette },
    fontFamily: 'Inter, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    defaultRadius: 'md',
    components: {
      Tooltip: { defaultProps: { offset: 12, zIndex: 9999 } },
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
