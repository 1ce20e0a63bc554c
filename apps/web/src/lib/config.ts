/**
 * Runtime settings of the web app, written by the server into /app-config.js
 * so that one build serves every environment.
 */
export type WebConfig = {
  apiBaseUrl: string;
  librasWidgetUrl: string | null;
};

declare global {
  interface Window {
    __APP_CONFIG__?: Partial<WebConfig>;
  }
}

export function readWebConfig(
  source: Partial<WebConfig> | undefined = window.__APP_CONFIG__,
): WebConfig {
  return {
    apiBaseUrl: typeof source?.apiBaseUrl === 'string' ? source.apiBaseUrl : '',
    librasWidgetUrl:
      typeof source?.librasWidgetUrl === 'string' && source.librasWidgetUrl !== ''
        ? source.librasWidgetUrl
        : null,
  };
}
