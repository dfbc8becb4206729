import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createApp } from './app.factory';
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

void bootstrap();
