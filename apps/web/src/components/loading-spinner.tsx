/**
 * A spinner that says what is loading. Mantine's Loader is a bare `<span>`,
 * which may not carry a name of its own (axe: aria-prohibited-attr); as a
 * status region it is announced with its label, and valid.
 */
import { Loader, type LoaderProps } from '@mantine/core';

export function LoadingSpinner({ label, ...props }: { label: string } & LoaderProps) {
  return <Loader role="status" aria-label={label} {...props} />;
}
