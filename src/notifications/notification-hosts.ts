import { lookup } from 'node:dns/promises';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import type { AuthMode } from '../config/environment';

/** A local sandbox notifies its own machine; one hosted for many TPPs (AUTH_MODE=strict) nothing private (docs/notifications.md). */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1'];

/**
 * Which hosts notifications may reach. Any host on the public internet; a host on a private,
 * loopback, link-local or reserved network only when NOTIFICATION_ALLOWED_HOSTS names it, so that
 * a hosted sandbox cannot be made to reach its own network (docs/notifications.md). The check runs
 * twice: at initiation on what the name resolves to then, for a clear 400, and at each delivery
 * on the address connected to (request-filtering-agent), which a name that resolves otherwise
 * later cannot get around.
 */
export class NotificationHosts {
  private readonly allowed: Set<string>;
  private readonly filtering = { 'http:': new RequestFilteringHttpAgent(), 'https:': new RequestFilteringHttpsAgent() };
  private readonly plain = { 'http:': new http.Agent(), 'https:': new https.Agent() };

  constructor(setting: string | undefined, authMode: AuthMode) {
    const hosts = setting === undefined ? (authMode === 'open' ? LOCAL_HOSTS : []) : setting === 'none' ? [] : setting.split(',');
    this.allowed = new Set(hosts.map((host) => host.trim().toLowerCase()));
  }

  /** The address of `url` that may not be notified, if one is; a name that does not resolve now may later, and is let through. */
  async refusedAddress(url: URL): Promise<string | null> {
    const host = hostOf(url);
    if (this.allowed.has(host)) return null;
    const addresses = isIP(host)
      ? [host]
      : await lookup(host, { all: true }).then(
          (found) => found.map(({ address }) => address),
          () => [],
        );
    return addresses.find((address) => !isPublic(ipaddr.parse(address))) ?? null;
  }

  /** The agent a delivery to `url` connects with: one that refuses a private address, unless the host is allowed. */
  agentFor(url: URL): http.Agent {
    const agents = this.allowed.has(hostOf(url)) ? this.plain : this.filtering;
    return agents[url.protocol as 'http:' | 'https:'];
  }
}

/**
 * Whether an address is on the public internet. An IPv6 address that carries an IPv4 one in its
 * last 32 bits (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96) is as public
 * as the IPv4 address it carries: `[::127.0.0.1]` is loopback, however it is spelt.
 */
function isPublic(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const bytes = address.toByteArray();
  const prefix = bytes.slice(0, 12).join();
  const carriesIpv4 = [EMBEDS_IPV4.mapped, EMBEDS_IPV4.compatible, EMBEDS_IPV4.nat64].includes(prefix);
  return carriesIpv4 ? isPublic(ipaddr.fromByteArray(bytes.slice(12))) : address.range() === 'unicast';
}

/** The first 96 bits of the IPv6 prefixes that carry an IPv4 address in the last 32. */
const EMBEDS_IPV4 = {
  mapped: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff].join(),
  compatible: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0].join(),
  nat64: [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0].join(),
};

/** The host as NOTIFICATION_ALLOWED_HOSTS names it: lower case, an IPv6 address without brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
