import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { World } from '../world/world';
import { RequestLog } from './request-log';

/** A request answered: what observe reads of it, and the finish event Node emits. */
function answer(log: RequestLog, number: number, world?: World): void {
  const request = { originalUrl: `/v1/payments/${number}?x=1`, method: 'GET', world } as unknown as Request;
  const response = Object.assign(new EventEmitter(), {
    statusCode: 200,
    locals: {},
    getHeader: () => `request-${number}`,
  }) as unknown as Response;
  log.observe(request, response, () => undefined);
  response.emit('finish');
}

describe('RequestLog', () => {
  it('lists the answered requests newest first, the last 200 of them, a client its own', () => {
    const log = new RequestLog();
    expect(log.list(World.open)).toEqual([]);
    for (let number = 1; number <= 3; number++) answer(log, number, number === 2 ? World.ofClient('client-a') : undefined);
    expect(log.list(World.open).map(({ requestId, path }) => [requestId, path])).toEqual([
      ['request-3', '/v1/payments/3'],
      ['request-2', '/v1/payments/2'],
      ['request-1', '/v1/payments/1'],
    ]);
    expect(log.list(World.ofClient('client-a')).map(({ requestId }) => requestId)).toEqual(['request-2']);

    for (let number = 4; number <= 450; number++) answer(log, number);
    const listed = log.list(World.open).map(({ requestId }) => requestId);
    expect(listed).toEqual(Array.from({ length: 200 }, (_, index) => `request-${450 - index}`));
    expect(log.list(World.ofClient('client-a'))).toEqual([]);
  });

  it('leaves out the cockpit and notes a request only once it is answered', () => {
    const log = new RequestLog();
    const response = Object.assign(new EventEmitter(), { statusCode: 200, locals: {}, getHeader: () => 'cockpit' }) as unknown as Response;
    log.observe({ originalUrl: '/cockpit/requests', method: 'GET' } as Request, response, () => undefined);
    response.emit('finish');
    const pending = Object.assign(new EventEmitter(), { statusCode: 200, locals: {}, getHeader: () => 'pending' }) as unknown as Response;
    log.observe({ originalUrl: '/v1/accounts', method: 'GET' } as Request, pending, () => undefined);
    expect(log.list(World.open)).toEqual([]);
  });
});
