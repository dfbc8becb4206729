import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ClockModule } from '../src/clock/clock.module';
import { validateEnvironment } from '../src/config/environment';
import { connectDatabase, DatabaseModule } from '../src/database/database.module';
import { loadProfile } from '../src/profile/load-profile';
import { ProfileModule } from '../src/profile/profile.module';
import { TppIdentityModule } from '../src/tpp-identity/tpp-identity.module';
import { IssueCertificateDto } from '../src/sandbox-control/certificates.controller';
import { CertificatesService } from '../src/tpp-identity/certificates.service';
import { SERVICES } from '../src/services';
import { dataSourceOptions, openDataSource } from '../src/database/data-source';
import { World } from '../src/world/world';
import { schemaOf } from '../src/schema/schema';
import { seeding } from '../src/schema/seed-fixtures';

const USAGE =
  'Usage: npm run certificate -- --roles PSP_AI,PSP_PI --name "My TPP" --out ./certs [--type QSEAL|QWAC] [--days 365] [--organisation-id PSDAT-FMA-12345]';

/**
 * `npm run certificate`: issues a test certificate from the sandbox CA of the server's database
 * (DATABASE_URL, else DATABASE_PATH), as POST /sandbox/certificates does, for a TPP's CI
 * (docs/tpp-identity.md). Writes <type>.pem, <type>.key and ca.pem into --out.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      roles: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      type: { type: 'string', default: 'QSEAL' },
      days: { type: 'string', default: '365' },
      'organisation-id': { type: 'string' },
    },
  });
  const request = plainToInstance(IssueCertificateDto, {
    type: values.type,
    organisationName: values.name,
    roles: values.roles?.split(',').map((role) => role.trim()),
    validDays: Number(values.days),
    organisationIdentifier: values['organisation-id'],
  });
  const problems = validateSync(request).flatMap((error) => Object.values(error.constraints ?? {}));
  if (!values.out || problems.length > 0) {
    console.error([USAGE, ...problems].join('\n'));
    return 2;
  }
  // The database, the clock and the CA as the server has them, without serving anything.
  const environment = validateEnvironment(process.env);
  const profile = loadProfile(environment.PROFILE, SERVICES);
  @Module({
    imports: [
      ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, validate: validateEnvironment }),
      ProfileModule.forRoot(profile),
      connectDatabase(dataSourceOptions(environment, schemaOf(SERVICES)), (options) => openDataSource(options, seeding(profile))),
      DatabaseModule,
      ClockModule,
      TppIdentityModule,
    ],
  })
  class CertificateModule {}
  const app = await NestFactory.createApplicationContext(CertificateModule, { logger: false });
  try {
    const certificates = app.get(CertificatesService);
    const issued = await certificates.issue(request, World.open, request.organisationName);
    const name = request.type.toLowerCase();
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, `${name}.pem`), issued.certificate);
    writeFileSync(join(values.out, `${name}.key`), issued.privateKey, { mode: 0o600 });
    writeFileSync(join(values.out, 'ca.pem'), (await certificates.authority()).certificate);
    console.log(
      `Issued ${request.type} ${issued.serialNumber} to ${issued.organisationName} (${issued.organisationIdentifier}), roles ${issued.roles.join(', ')}, valid ${issued.notBefore} until ${issued.notAfter}: ${join(values.out, `${name}.pem`)}, ${name}.key, ca.pem`,
    );
    return 0;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
