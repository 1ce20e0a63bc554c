/**
 * Short-lived addresses for images an <img> must load without the bearer
 * header: `<path>?viewer=<user>&expires=<ms>&signature=<hmac>`, made by
 * FileStorage.signAccess and checked by FileStorage.verifyAccess.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FileStorage, SignedRoute } from './file-storage';

export const signedAccessQuery = z.object({
  viewer: z.uuid(),
  expires: z.coerce.number().int(),
  signature: z.string().min(10).max(100),
});

/**
 * Who opens a signed address (the actor of a signed route): the viewer it was
 * made for, vouched by its signature and expiry.
 */
export type SignedViewer = z.infer<typeof signedAccessQuery>;

/** The address of `path` for `viewer`, signed for `route` only (see FileStorage.signAccess). */
export function signedPath(
  files: Pick<FileStorage, 'signAccess'>,
  route: SignedRoute,
  path: string,
  subject: string,
  viewer: string,
  expiresAt: number,
): string {
  return `${path}?viewer=${viewer}&expires=${expiresAt}&signature=${files.signAccess(route, subject, viewer, expiresAt)}`;
}

/** Sends stored JPEG bytes (no 200 schema, so no JSON serializer touches them). */
export function sendPrivateImage(reply: FastifyReply, content: Buffer, cacheControl: string) {
  return reply
    .header('content-type', 'image/jpeg')
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', 'inline')
    .send(content as never);
}
