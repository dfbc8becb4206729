import {
  actingAs,
  asClock,
  causedBy,
  currentActor,
  currentCause,
  currentCertificate,
  identifiedBy,
  inCallersWrite,
  inRequestContext,
  owedInsertOfRequest,
  writeUnderWay,
} from './request-context';

/** What the work sees, read at once. */
const seen = () => ({ cause: currentCause(), actor: currentActor(), certificate: currentCertificate(), write: writeUnderWay() });

const inRequest = <T>(requestId: string, work: () => Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => inRequestContext(requestId, () => void work().then(resolve, reject)));

/** What Store.write does: the caller's write, run at once. */
const inWrite = <T>(write: unknown, work: () => T): T => inCallersWrite()(write, work);

describe('the one async context (request, actor, certificate and write)', () => {
  const write = { transaction: 'the write' };
  const psu = { psuId: 'PSU-1', channel: 'page' } as const;

  it('outside a request: caused by the start-up, in no write', () => {
    expect(seen()).toEqual({ cause: 'startup', actor: undefined, certificate: undefined, write: undefined });
    expect(owedInsertOfRequest()).toBeUndefined();
  });

  it('a write keeps what the request holds, across awaits, and ends with its work', async () => {
    await inRequest('request-1', async () => {
      identifiedBy('SERIAL-1');
      const owing = owedInsertOfRequest();
      const inside = await inWrite(write, async () => {
        await Promise.resolve();
        return { ...seen(), owing: owedInsertOfRequest() };
      });
      expect(inside).toEqual({ cause: 'request-1', actor: undefined, certificate: 'SERIAL-1', write, owing });
      expect(inside.owing).toBe(owing); // by reference: a write that makes the owed insert clears it for the request
      expect(seen()).toEqual({ cause: 'request-1', actor: undefined, certificate: 'SERIAL-1', write: undefined });
    });
  });

  it("a write run later under another request's context (a batch of writes) still names its own caller", async () => {
    let runLater: (() => Promise<unknown>) | undefined;
    const queued = inRequest('request-b', async () => {
      identifiedBy('SERIAL-B');
      const inCallers = inCallersWrite();
      return actingAs(psu, async () => {
        const inActors = inCallersWrite();
        runLater = () => Promise.all([inCallers(write, async () => seen()), inActors(write, async () => seen())]);
      });
    });
    await queued;
    const [asCaller, asActor] = (await inRequest('request-a', async () => runLater!())) as ReturnType<typeof seen>[];
    expect(asCaller).toEqual({ cause: 'request-b', actor: undefined, certificate: 'SERIAL-B', write });
    expect(asActor).toEqual({ cause: 'request-b', actor: psu, certificate: 'SERIAL-B', write });
  });

  it('a write outside any request is caused by the start-up', async () => {
    expect(await inWrite(write, async () => seen())).toEqual({ cause: 'startup', actor: undefined, certificate: undefined, write });
  });

  it('a PSU acting inside a write stays in it, and a write begun while one acts names them', async () => {
    await inRequest('request-2', async () => {
      expect(await inWrite(write, () => actingAs(psu, async () => seen()))).toEqual({
        cause: 'request-2',
        actor: psu,
        certificate: undefined,
        write,
      });
      expect(await actingAs(psu, () => inWrite(write, async () => seen()))).toEqual({
        cause: 'request-2',
        actor: psu,
        certificate: undefined,
        write,
      });
    });
  });

  it('work done for another cause (a notification, the clock) keeps the write under way, and nothing else of the request', async () => {
    await inRequest('request-3', async () => {
      identifiedBy('SERIAL-3');
      await inWrite(write, async () => {
        expect(await causedBy('request-0', async () => ({ ...seen(), owing: owedInsertOfRequest() }))).toEqual({
          cause: 'request-0',
          actor: undefined,
          certificate: undefined,
          write,
          owing: undefined,
        });
        expect(await actingAs(psu, () => asClock(async () => seen()))).toEqual({
          cause: 'clock',
          actor: undefined,
          certificate: undefined,
          write,
        });
      });
      expect(await asClock(async () => seen())).toEqual({ cause: 'clock', actor: undefined, certificate: undefined, write: undefined });
    });
  });
});
