import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { IsDateOnly } from '../common/validators';

export const SCA_MODES = ['auto', 'redirect'] as const;
export type ScaMode = (typeof SCA_MODES)[number];

export const AUTH_MODES = ['open', 'strict'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The sandbox's settings, read from the environment once at start (docs/operations.md, "Configuration"). */
export class Environment {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  /** The HTTPS listener of a profile with tpp.qwac: mtls (docs/tpp-identity.md); 0 takes any free port. */
  @IsInt()
  @Min(0)
  @Max(65535)
  TLS_PORT: number = 3443;

  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PUBLIC_BASE_URL: string = 'http://localhost:3000';

  /** The embedded SQLite file; ignored when DATABASE_URL is set. */
  @IsString()
  @MinLength(1)
  DATABASE_PATH: string = 'data/sandbox.sqlite';

  /** `postgres://user:password@host:port/database`: runs on PostgreSQL instead of the SQLite file (docs/operations.md). */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsIn(SCA_MODES)
  SCA_MODE: ScaMode = 'auto';

  /** `open`: any non-empty bearer token; `strict`: only tokens from POST /oauth2/token, each client sees its own data only. */
  @IsIn(AUTH_MODES)
  AUTH_MODE: AuthMode = 'open';

  /** The bank the sandbox is: a built-in profile's name or a profile folder, relative to the working directory (docs/profiles.md). */
  @IsString()
  @MinLength(1)
  PROFILE: string = 'bank';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** `false` removes the /sandbox control endpoints, e.g. for a sandbox hosted for many TPPs. */
  @IsIn(['true', 'false'])
  SANDBOX_CONTROL: 'true' | 'false' = 'true';

  /**
   * Hosts on a private, loopback or reserved network that status notifications may reach, separated
   * by commas, or `none`. Unset: `localhost,127.0.0.1,::1` with AUTH_MODE=open, none with strict (docs/notifications.md).
   */
  @IsOptional()
  @Matches(/^[\w.:-]+(\s*,\s*[\w.:-]+)*$/, {
    message: 'NOTIFICATION_ALLOWED_HOSTS must be host names or addresses separated by commas, or none',
  })
  NOTIFICATION_ALLOWED_HOSTS?: string;

  /** How many clients one address may register an hour (POST /register); 0: no bound (docs/security.md, "Clients register themselves"). */
  @IsInt()
  @Min(0)
  REGISTRATIONS_PER_HOUR: number = 100;

  /** How many resources (consents, payments, baskets, payee checks, scenarios, certificates) one world may store; 0: no bound (docs/security.md, "A world's life"). */
  @IsInt()
  @Min(0)
  WORLD_MAX_RESOURCES: number = 10_000;

  /** Days without a request after which a registered client is deleted with its world; 0: never (docs/security.md, "A world's life"). */
  @IsInt()
  @Min(0)
  WORLD_IDLE_DAYS: number = 30;

  /**
   * The proxies whose X-Forwarded-For names the caller, separated by commas: addresses, subnets
   * (CIDR), or loopback, linklocal, uniquelocal (docs/operations.md). Unset: none is believed, and
   * every bound kept by address (registrations, sign-ins) counts the proxy's address.
   */
  @IsOptional()
  @Matches(/^[\w.:/-]+(\s*,\s*[\w.:/-]+)*$/, {
    message: 'TRUST_PROXY must be addresses, subnets or loopback, linklocal, uniquelocal, separated by commas',
  })
  TRUST_PROXY?: string;

  /** Where the sandbox clock starts until it is set; unset means the real UTC date. */
  @IsOptional()
  @IsDateOnly()
  SANDBOX_DATE?: string;
}

// Class fields are own properties (ES2022 define semantics), so this lists every setting.
const KEYS = Object.keys(new Environment()) as (keyof Environment)[];

export function validateEnvironment(raw: Record<string, unknown>): Environment {
  // Empty strings count as unset, so `PORT=` in a compose file falls back to the default.
  const given = Object.fromEntries(KEYS.filter((key) => raw[key] !== undefined && raw[key] !== '').map((key) => [key, raw[key]]));
  const environment = plainToInstance(Environment, given, { enableImplicitConversion: true });
  const errors = validateSync(environment);
  if (errors.length > 0) {
    const lines = errors.map(
      (error) => `  ${error.property}=${JSON.stringify(raw[error.property])}: ${Object.values(error.constraints ?? {}).join('; ')}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  environment.PUBLIC_BASE_URL = environment.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return environment;
}
