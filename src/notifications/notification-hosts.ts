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
    return addresses.find((address) => ipaddr.parse(address).range() !== 'unicast') ?? null;
  }

  /** The agent a delivery to `url` connects with: one that refuses a private address, unless the host is allowed. */
  agentFor(url: URL): http.Agent {
    const agents = this.allowed.has(hostOf(url)) ? this.plain : this.filtering;
    return agents[url.protocol as 'http:' | 'https:'];
  }
}

/** The host as NOTIFICATION_ALLOWED_HOSTS names it: lower case, an IPv6 address without brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
