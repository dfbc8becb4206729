import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import { Environment } from '../config/environment';
import { BankProfile } from '../profile/bank-profile';
import { CertificatesService } from './certificates.service';
import type { Express } from 'express';
import { requestClasses } from '../http/request-classes';

/**
 * tpp.qwac: mtls (docs/tpp-identity.md): an HTTPS listener on TLS_PORT, beside the plain one,
 * with a server certificate from the sandbox CA, that asks every client for its certificate. It
 * lets a connection without one, or with one of an unknown CA, through the handshake, so that the
 * request is refused with a Berlin Group body (TppIdentityGuard) rather than a bare TLS alert.
 */
@Injectable()
export class MutualTlsListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server: Server | undefined;

  constructor(
    private readonly profile: BankProfile,
    private readonly certificates: CertificatesService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  /** The port it listens on; undefined when the profile asks for no mTLS. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.profile.tpp.qwac !== 'mtls') return;
    const { hostname } = new URL(this.config.get('PUBLIC_BASE_URL', { infer: true }));
    const { certificate, privateKey } = await this.certificates.serverCertificate([...new Set([hostname, 'localhost', '127.0.0.1'])]);
    const ca = [(await this.certificates.authority()).certificate, ...this.profile.trustedCAs];
    const app = this.adapterHost.httpAdapter.getInstance<Express>();
    const server = createServer(
      { key: privateKey, cert: certificate, ca, requestCert: true, rejectUnauthorized: false, ...requestClasses(app) },
      app,
    );
    await new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(this.config.get('TLS_PORT', { infer: true }), resolve),
    );
    this.server = server;
    new Logger('Sandbox').log(`Serving HTTPS with client certificates (tpp.qwac: mtls) on port ${this.port}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }
}
