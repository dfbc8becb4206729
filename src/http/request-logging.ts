import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Environment } from '../config/environment';

/** JSON wherever logs are collected (production, tests); readable lines for a developer at a terminal. */
export const logsAreJson = (): boolean => ['production', 'test'].includes(process.env.NODE_ENV ?? '');

/**
 * One JSON line per request: X-Request-ID, method, path, status and duration. Serializers keep
 * only those fields, so headers (the bearer token among them), query strings and bodies are never logged.
 */
export const RequestLoggingModule = LoggerModule.forRootAsync({
  inject: [ConfigService],
  useFactory: (config: ConfigService<Environment, true>) => ({
    // Silent: no per-request middleware at all (it costs a child logger and an async context per request).
    forRoutes: config.get('LOG_LEVEL', { infer: true }) === 'silent' ? [] : undefined,
    pinoHttp: {
      level: config.get('LOG_LEVEL', { infer: true }),
      transport: !logsAreJson() ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
      // The ID the answer carries: the client's, or the one made up where none came (request-id.middleware.ts).
      customProps: (_request: IncomingMessage, response: ServerResponse) => ({ requestId: response.getHeader('x-request-id') ?? null }),
      serializers: {
        req: ({ method, url }: { method: string; url: string }) => ({ method, path: url.split('?')[0] }),
        res: ({ statusCode }: { statusCode: number }) => ({ status: statusCode }),
      },
      // A 503 is the sandbox refusing what it cannot do now (a full disk, maintenance): a warning; an error is a bug (docs/operations.md, "Logs").
      customLogLevel: (_request: IncomingMessage, response: { statusCode: number }, error?: Error) =>
        response.statusCode === 503 ? 'warn' : error || response.statusCode >= 500 ? 'error' : 'info',
    },
  }),
});
