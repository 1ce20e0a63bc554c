/** A `matchMedia` for jsdom, which lacks it: the lists match the queries `matches` accepts. */
export function fakeMatchMedia(matches: (query: string) => boolean = () => false) {
  return (query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}
