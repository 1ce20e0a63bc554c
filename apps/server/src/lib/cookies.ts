/** The few cookies the API sets: read one from the request, write one with safe attributes. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return value === '' ? null : value;
  }
  return null;
}

/**
 * HttpOnly (scripts cannot read it), SameSite=Strict by default (other sites
 * cannot make the browser send it), limited to `path`, Secure when served over HTTPS in
 * production.
 */
export function setCookie(
  reply: FastifyReply,
  cookie: {
    name: string;
    value: string;
    path: string;
    maxAgeSeconds: number;
    secure: boolean;
    /** Lax where the browser must send it back on a top-level arrival from another site (a provider's return). */
    sameSite?: 'Strict' | 'Lax';
  },
): void {
  const attributes = [
    `${cookie.name}=${cookie.value}`,
    `Path=${cookie.path}`,
    `Max-Age=${cookie.maxAgeSeconds}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite ?? 'Strict'}`,
    ...(cookie.secure ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; '));
}
