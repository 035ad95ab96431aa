/**
 * Which addresses a connection may reach, checked on the address a name resolves to, when the connection is
 * made (a name's DNS answer can change between a check and the connection; this check is the connection's own
 * lookup). Pure; no `vscode` import.
 *
 * - `loopbackOnly`: a service named `localhost` or `*.localhost` is treated as this machine (plain http
 *   allowed, never proxied), so it must resolve to a loopback address; Node asks DNS for such names.
 * - `publicOnly`: a Model Card (a registry's link, or a redirect from one) may not reach this machine, a
 *   private network or a link-local address such as a cloud metadata service.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { l10n } from '../common/plainL10n';

export type AddressRule = 'loopbackOnly' | 'publicOnly';

/** The error a refused address gives; its message says why, for people. */
export const ADDRESS_REFUSED = 'MODEL_ACCESS_ADDRESS_REFUSED';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of any IPv4 address, private ones included
] as const) {
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
}

/** An address without URL brackets, with its family (BlockList matches IPv4 written as IPv6 itself). */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const a = address.replace(/^\[|\]$/g, '').toLowerCase();
  return { address: a, family: isIP(a) === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether an IP address may be reached under `rule`. */
export function addressAllowed(address: string, rule: AddressRule): boolean {
  const a = unmapped(address);
  if (isIP(a.address) === 0) {
    return false;
  }
  return rule === 'loopbackOnly' ? LOOPBACK.check(a.address, a.family) : !NOT_PUBLIC.check(a.address, a.family);
}

/** Why `host` (resolved to `addresses`) is refused under `rule`, in words. */
export function refusalMessage(host: string, addresses: readonly string[], rule: AddressRule): string {
  const where = addresses.length ? `${host} (${addresses.join(', ')})` : host;
  return rule === 'loopbackOnly'
    ? l10n.t(
        '{0} is not on this machine: a name ending in localhost is trusted as this machine only when it resolves to a loopback address.',
        where,
      )
    : l10n.t(
        '{0} is on this machine, a private network or a link-local address; a Model Card is read only from public addresses or from the service itself.',
        where,
      );
}

function refusal(host: string, addresses: readonly string[], rule: AddressRule): Error {
  return Object.assign(new Error(refusalMessage(host, addresses, rule)), { code: ADDRESS_REFUSED });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect` (undici's `connect` options) that resolves as Node does and
 * keeps only the addresses `rule` allows; none left is an error whose message says why.
 */
export function guardedLookup(rule: AddressRule) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) {
        callback(error, []);
        return;
      }
      const allowed = found.filter((a) => addressAllowed(a.address, rule));
      if (allowed.length === 0) {
        callback(
          refusal(
            hostname,
            found.map((a) => a.address),
            rule,
          ),
          [],
        );
        return;
      }
      if (options.all) {
        callback(null, allowed);
      } else {
        callback(null, allowed[0].address, allowed[0].family);
      }
    });
  };
}

/** An IP-literal host that `rule` refuses (no lookup is made for a literal), as the refusal; else undefined. */
export function literalRefusal(hostname: string, rule: AddressRule): Error | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) !== 0 && !addressAllowed(host, rule) ? refusal(host, [], rule) : undefined;
}

/** The refusal among an error and its causes, if a guard refused the connection. */
export function addressRefusal(e: unknown): Error | undefined {
  for (let c = e, depth = 0; c && depth < 5; c = (c as { cause?: unknown }).cause, depth++) {
    if ((c as { code?: unknown }).code === ADDRESS_REFUSED) {
      return c as Error;
    }
  }
  return undefined;
}
