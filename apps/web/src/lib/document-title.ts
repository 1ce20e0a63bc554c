/**
 * A screen's own name for the browser tab when the route's static name is not
 * enough (a record's number): set once the screen knows it, and the route's
 * name back when it is gone. The root layout writes the route's name in a
 * layout effect, before the screens' effects, so this one wins.
 */
import { PRODUCT_NAME } from '@exame/shared';
import { useEffect } from 'react';

export function useDocumentTitle(name: string | null): void {
  useEffect(() => {
    if (!name) return;
    const previous = document.title;
    const own = `${name} · ${PRODUCT_NAME}`;
    document.title = own;
    return () => {
      // Leaving for another route: the layout has already named the next page.
      if (document.title === own) document.title = previous;
    };
  }, [name]);
}
