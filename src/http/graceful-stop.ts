import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * A stop (SIGTERM, docker stop) that lets every connection go once its answer is out. Node's
 * server.close() closes only the keep-alive connections idle at that moment: one busy then was
 * served on for as long as its client kept sending, so a polling suite held the stop open until
 * the process was killed. From the stop on, every answer not yet sent says Connection: close,
 * and Node closes its connection after it.
 */
@Injectable()
export class GracefulStop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly unanswered = new Set<ServerResponse>();
  private stopping = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server: Server = this.adapterHost.httpAdapter.getHttpServer();
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.stopping) return lastOnItsConnection(response);
      this.unanswered.add(response);
      response.once('close', () => this.unanswered.delete(response));
    });
  }

  /** Runs before Nest closes the server, which waits for every connection to end. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const response of this.unanswered) lastOnItsConnection(response);
  }
}

function lastOnItsConnection(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('Connection', 'close');
}
