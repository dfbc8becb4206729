import { EventEmitter } from 'node:events';
import type { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { Environment } from '../config/environment';
import { World } from '../world/world';
import { RequestLog } from './request-log';

const logIn = (AUTH_MODE: 'open' | 'strict') => new RequestLog({ get: () => AUTH_MODE } as unknown as ConfigService<Environment, true>);

/** A request answered: what observe reads of it, and the finish event Node emits. */
function answer(log: RequestLog, number: number, world?: World, proof: { token?: boolean; certificate?: string } = { token: true }): void {
  const request = { originalUrl: `/v1/payments/${number}?x=1`, method: 'GET', world, worldByToken: proof.token } as unknown as Request;
  const response = Object.assign(new EventEmitter(), {
    statusCode: 200,
    locals: proof.certificate ? { certificate: proof.certificate } : {},
    getHeader: () => `request-${number}`,
  }) as unknown as Response;
  log.observe(request, response, () => undefined);
  response.emit('finish');
}

const ids = (log: RequestLog, world: World) => log.list(world).map(({ requestId }) => requestId);

describe('RequestLog', () => {
  it('open mode: lists every answered request newest first, the last 200, those refused before a world was found too', () => {
    const log = logIn('open');
    expect(log.list(World.open)).toEqual([]);
    for (let number = 1; number <= 3; number++) answer(log, number, number === 2 ? undefined : World.open);
    expect(log.list(World.open).map(({ requestId, path }) => [requestId, path])).toEqual([
      ['request-3', '/v1/payments/3'],
      ['request-2', '/v1/payments/2'],
      ['request-1', '/v1/payments/1'],
    ]);
    for (let number = 4; number <= 450; number++) answer(log, number, World.open);
    expect(ids(log, World.open)).toEqual(Array.from({ length: 200 }, (_, index) => `request-${450 - index}`));
  });

  it("strict mode: a log for each world, which another client's requests never push out (issue 73, finding 8)", () => {
    const log = logIn('strict');
    const [a, b] = [World.ofClient('client-a'), World.ofClient('client-b')];
    answer(log, 1, a);
    for (let number = 2; number <= 300; number++) answer(log, number, b);
    expect(ids(log, a)).toEqual(['request-1']);
    expect(ids(log, b)).toHaveLength(200);
    expect(log.list(World.open)).toEqual([]);
  });

  it("strict mode: a request is written in a world only once it proved it is the world's, by its token or a certificate that passed", () => {
    const log = logIn('strict');
    const a = World.ofClient('client-a');
    // A's published certificate and a bogus signature: the world found, never proven.
    answer(log, 1, a, {});
    answer(log, 2, undefined);
    answer(log, 3, a, { certificate: '1A2B' });
    answer(log, 4, a, { token: true });
    expect(log.list(a).map(({ requestId, certificate }) => [requestId, certificate])).toEqual([
      ['request-4', null],
      ['request-3', '1A2B'],
    ]);
    expect(log.list(World.open)).toEqual([]);
  });

  it('keeps the logs of the 100 worlds last active: the least recently active one goes first', () => {
    const log = logIn('strict');
    const worlds = Array.from({ length: 101 }, (_, index) => World.ofClient(`client-${index}`));
    worlds.slice(0, 100).forEach((world, index) => answer(log, index, world));
    answer(log, 1000, worlds[0]);
    answer(log, 1001, worlds[100]);
    expect(ids(log, worlds[0])).toEqual(['request-1000', 'request-0']);
    expect(ids(log, worlds[1])).toEqual([]);
    expect(ids(log, worlds[100])).toEqual(['request-1001']);
  });

  it('leaves out the cockpit and notes a request only once it is answered', () => {
    const log = logIn('open');
    const response = Object.assign(new EventEmitter(), { statusCode: 200, locals: {}, getHeader: () => 'cockpit' }) as unknown as Response;
    log.observe({ originalUrl: '/cockpit/requests', method: 'GET' } as Request, response, () => undefined);
    response.emit('finish');
    const pending = Object.assign(new EventEmitter(), { statusCode: 200, locals: {}, getHeader: () => 'pending' }) as unknown as Response;
    log.observe({ originalUrl: '/v1/accounts', method: 'GET' } as Request, pending, () => undefined);
    expect(log.list(World.open)).toEqual([]);
  });
});
