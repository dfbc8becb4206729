import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A TPP's notification endpoint on loopback: records what arrives, answers the statuses it is told to in turn, then 204. */
export class NotificationReceiver {
  readonly received: Received[] = [];
  /** The statuses the next requests get, in turn. */
  answers: number[] = [];
  private server: Server | undefined;
  private waiting: (() => void)[] = [];

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        response.writeHead(this.answers.shift() ?? 204).end();
        for (const wake of this.waiting) wake();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  /** The URL of `path` on this receiver, by the host name given. */
  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  /** What arrived at `path` once `count` requests have, or fails after `timeoutMs`. */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    const arrived = () => this.received.filter((received) => received.path === path);
    while (arrived().length < count) {
      if (Date.now() > deadline) throw new Error(`${arrived().length} of ${count} notifications arrived at ${path}`);
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        setTimeout(resolve, 100);
      });
      this.waiting = [];
    }
    return arrived();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
