import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { post } from './delivery';
import { NotificationHosts } from './notification-hosts';

describe('NotificationHosts', () => {
  it('refuses private, loopback, link-local, reserved and unspecified addresses; takes public ones', async () => {
    const hosts = new NotificationHosts('none', 'open');
    for (const host of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '[::1]',
      '[fd12::1]',
      '[fe80::1]',
      '0.0.0.0',
      '100.64.0.1',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(await hosts.refusedAddress(new URL(`http://${host}/hook`))).toBe(
        host.replace(/^\[(.*)\]$/, '$1').replace('::ffff:127.0.0.1', '::ffff:7f00:1'),
      );
    }
    // An IPv4 address carried in an IPv6 one, however it is spelt (WHATWG URL writes them in hex).
    for (const [host, written] of [
      ['[::127.0.0.1]', '::7f00:1'],
      ['[::ffff:10.0.0.1]', '::ffff:a00:1'],
      ['[::0:ffff:7f00:1]', '::ffff:7f00:1'],
      ['[64:ff9b::169.254.169.254]', '64:ff9b::a9fe:a9fe'],
      ['[::]', '::'],
      ['[::0.0.0.1]', '::1'],
    ])
      expect(await hosts.refusedAddress(new URL(`http://${host}/hook`))).toBe(written);
    expect(await hosts.refusedAddress(new URL('https://[::ffff:93.184.215.14]/hook'))).toBeNull();
    expect(await hosts.refusedAddress(new URL('https://93.184.215.14/hook'))).toBeNull();
    expect(await hosts.refusedAddress(new URL('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook'))).toBeNull();
  });

  it('resolves a name and refuses what it resolves to; a name that does not resolve is let through (each delivery checks again)', async () => {
    const hosts = new NotificationHosts(undefined, 'strict');
    expect(await hosts.refusedAddress(new URL('http://localhost:8080/hook'))).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await hosts.refusedAddress(new URL('http://no-such-host.invalid/hook'))).toBeNull();
  });

  it('allows localhost by default in AUTH_MODE=open, nothing private in strict, and what NOTIFICATION_ALLOWED_HOSTS names', async () => {
    const open = new NotificationHosts(undefined, 'open');
    for (const host of ['localhost', '127.0.0.1', '[::1]']) expect(await open.refusedAddress(new URL(`http://${host}:3000/`))).toBeNull();
    expect(await open.refusedAddress(new URL('http://10.0.0.1/'))).toBe('10.0.0.1');
    const named = new NotificationHosts('receiver, 10.0.0.7', 'strict');
    expect(await named.refusedAddress(new URL('http://10.0.0.7/'))).toBeNull();
    expect(await named.refusedAddress(new URL('http://10.0.0.8/'))).toBe('10.0.0.8');
    expect(await named.refusedAddress(new URL('http://127.0.0.1/'))).toBe('127.0.0.1');
  });

  describe('at delivery', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_, response) => response.writeHead(204).end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('connects to an allowed host, and refuses the connection to a private address however the name came to resolve to it', async () => {
      const url = new URL(`http://localhost:${port}/hook`);
      expect(await post(url, '{}', {}, new NotificationHosts(undefined, 'open').agentFor(url))).toEqual({
        delivered: true,
        outcome: 'HTTP 204',
      });
      expect(await post(url, '{}', {}, new NotificationHosts(undefined, 'strict').agentFor(url))).toEqual({
        delivered: false,
        outcome: 'REFUSED ADDRESS',
      });
      const closed = new URL('http://127.0.0.1:1/hook');
      expect(await post(closed, '{}', {}, new NotificationHosts(undefined, 'open').agentFor(closed))).toEqual({
        delivered: false,
        outcome: 'ECONNREFUSED',
      });
    });
  });
});
