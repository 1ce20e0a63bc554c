/**
 * The Libras (Brazilian Sign Language) accessibility widget. The script comes
 * from a configurable address (LIBRAS_WIDGET_URL, for example VLibras'
 * `vlibras-plugin.js`); without one, nothing is loaded. The widget is kept in
 * the page once loaded and hidden on the admin-guarded routes (spec 2).
 */
import { useEffect, useState } from 'react';

declare global {
  interface Window {
    VLibras?: { Widget: new (rootPath?: string) => unknown };
  }
}

const SCRIPT_ID = 'libras-widget-script';

/** The folder of the script: VLibras loads its assets relative to it. */
export function widgetRootPath(scriptUrl: string): string {
  const url = new URL(scriptUrl, window.location.href);
  url.pathname = url.pathname.replace(/\/[^/]*$/, '');
  url.search = '';
  return url.toString();
}

export function LibrasWidget({ scriptUrl, hidden }: { scriptUrl: string | null; hidden: boolean }) {
  const [started, setStarted] = useState(false);

  useEffect(() => {
    if (!scriptUrl || started || hidden) return;
    const start = () => {
      if (!window.VLibras) return;
      try {
        new window.VLibras.Widget(widgetRootPath(scriptUrl));
        setStarted(true);
      } catch (error) {
        console.error('[libras] falha ao iniciar o widget', error);
      }
    };
    const existing = document.getElementById(SCRIPT_ID) as HTMLScriptElement | null;
    if (existing) {
      if (window.VLibras) start();
      else existing.addEventListener('load', start, { once: true });
      return;
    }
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.src = scriptUrl;
    script.async = true;
    script.addEventListener('load', start, { once: true });
    script.addEventListener(
      'error',
      () => console.error('[libras] falha ao carregar o script do widget'),
      {
        once: true,
      },
    );
    document.body.appendChild(script);
  }, [scriptUrl, started, hidden]);

  if (!scriptUrl) return null;
  return (
    <div
      data-testid="libras-widget"
      hidden={hidden}
      aria-hidden={hidden}
      style={hidden ? { display: 'none' } : undefined}
      // VLibras looks for these attributes.
      {...{ vw: '' }}
      className="enabled"
    >
      <div {...{ 'vw-access-button': '' }} className="active" />
      <div {...{ 'vw-plugin-wrapper': '' }}>
        <div className="vw-plugin-top-wrapper" />
      </div>
    </div>
  );
}
