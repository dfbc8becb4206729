import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createApp } from './app.factory';
import { logsAreJson } from './http/request-logging';
import { Environment } from './config/environment';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  app.enableShutdownHooks();
  const config = app.get<ConfigService<Environment, true>>(ConfigService);
  await app.listen(config.get('PORT', { infer: true }));
  new Logger('Sandbox').log(
    `Serving on port ${config.get('PORT', { infer: true })} as ${config.get('PUBLIC_BASE_URL', { infer: true })} ` +
      `(SCA_MODE=${config.get('SCA_MODE', { infer: true })}, database ${config.get('DATABASE_PATH', { infer: true })}); Swagger UI at /docs`,
  );
}

// Any failure to start (a bad setting, a database that cannot be opened) ends the process with its
// message on stderr and a non-zero code, so that a supervisor does not restart it in silence.
bootstrap().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${logsAreJson() ? JSON.stringify({ level: 60, time: Date.now(), context: 'Sandbox', msg: message }) : message}\n`);
  process.exit(1); // stderr is synchronous on a pipe or file (Linux), so the message is out first
});
