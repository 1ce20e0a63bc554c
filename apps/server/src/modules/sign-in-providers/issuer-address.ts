/**
 * Where the server may reach an identity provider. An ADMIN types the
 * issuer; the server then fetches its discovery document, keys, token and
 * userinfo endpoints. Outside development (SSO_ALLOW_HTTP off), none of
 * those may be this machine (loopback), a link-local address (cloud metadata
 * services live at 169.254.169.254) or an unspecified or multicast one:
 * the issuer field would otherwise be a way to make the server call its own
 * internal services. Private networks stay allowed: a state's Keycloak often
 * lives on one. Every address a name resolves to is checked, at each request.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
blocked.addSubnet('0.0.0.0', 8, 'ipv4');
blocked.addSubnet('127.0.0.0', 8, 'ipv4');
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addSubnet('224.0.0.0', 4, 'ipv4');
blocked.addSubnet('255.255.255.255', 32, 'ipv4');
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addSubnet('ff00::', 8, 'ipv6');

export class ForbiddenIssuerAddress extends Error {
  override name = 'ForbiddenIssuerAddress';
}

function isBlocked(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? blocked.check(mapped[1]!, 'ipv4') : blocked.check(address, 'ipv6');
}

/** Throws ForbiddenIssuerAddress when `url`'s host is, or resolves to, an address refused above. */
export async function assertReachableAddress(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [host]
    : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  if (addresses.length === 0 || addresses.some(isBlocked)) {
    throw new ForbiddenIssuerAddress(`endereço interno recusado: ${url.host}`);
  }
}
