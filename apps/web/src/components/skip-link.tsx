/**
 * The first stop of the keyboard on every screen of the shell: a link,
 * hidden until focused, that moves the focus past the header and the menu to
 * the screen's main content (eMAG 1.5, WCAG 2.4.1). The focus is moved by
 * hand rather than by the address's fragment, so the address stays as it is
 * and no page view is recorded for it.
 */
import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'conteudo';

export function SkipLink({ targetId = MAIN_CONTENT_ID }: { targetId?: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
    target.scrollIntoView?.({ block: 'start' });
  };
  return (
    <a href={`#${targetId}`} className="skip-link" onClick={skip}>
      Ir para o conteúdo
    </a>
  );
}
