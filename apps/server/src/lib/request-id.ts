/**
 * Request ids. Every request gets one: it is on every log line of the
 * request (`requestId`), in the `x-request-id` response header and in every
 * error body (`{ Error, code, requestId }`), so that a person who reports an
 * error message can be matched to the server's log, on whichever instance
 * answered.
 *
 * An incoming `x-request-id` is kept only when it comes from a proxy named in
 * TRUST_PROXY (the load balancer that made it, so one id follows the request
 * through the proxy's log and ours) and is a sane token: 8 to 128 letters,
 * digits, `.`, `_`, `:` or `-`. A client talking to us directly cannot choose
 * the id under which its requests are logged (it could otherwise reuse
 * another request's id to muddle an investigation, or write into the log).
 * Everything else gets a new random id (UUID v4), unique across instances.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export const REQUEST_ID_HEADER = 'x-request-id';

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is the IPv4 address. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** The TRUST_PROXY entries (addresses and CIDRs) as a set to test peers against. */
export function trustedPeers(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/** Fastify's `genReqId`: the trusted proxy's id when sane, else a new one. */
export function requestIdGenerator(trustProxy: readonly string[]) {
  const peers = trustedPeers(trustProxy);
  const anyTrusted = trustProxy.length > 0;
  return (request: IncomingMessage): string => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (anyTrusted && typeof given === 'string' && SANE_ID.test(given)) {
      const peer = plainAddress(request.socket?.remoteAddress ?? '');
      const family = isIP(peer);
      if (family !== 0 && peers.check(peer, family === 4 ? 'ipv4' : 'ipv6')) return given;
    }
    return randomUUID();
  };
}
