import { validateEnvironment } from './environment';

describe('environment', () => {
  it('has defaults for every setting', () => {
    expect({ ...validateEnvironment({}) }).toEqual({
      PORT: 3000,
      TLS_PORT: 3443,
      PUBLIC_BASE_URL: 'http://localhost:3000',
      DATABASE_PATH: 'data/sandbox.sqlite',
      DATABASE_URL: undefined,
      SCA_MODE: 'auto',
      LOG_LEVEL: 'info',
      AUTH_MODE: 'open',
      PROFILE: 'bank',
      SANDBOX_CONTROL: 'true',
      REGISTRATIONS_PER_HOUR: 100,
      WORLD_MAX_RESOURCES: 10_000,
      WORLD_IDLE_DAYS: 30,
      TRUST_PROXY: undefined,
      SANDBOX_DATE: undefined,
    });
  });

  it('reads the given values, ignores unrelated variables and empty ones', () => {
    expect({
      ...validateEnvironment({
        PORT: '8080',
        PUBLIC_BASE_URL: 'https://sandbox.example/',
        SCA_MODE: 'redirect',
        SANDBOX_DATE: '2026-01-31',
        DATABASE_PATH: '',
        DATABASE_URL: 'postgres://sandbox:secret@db:5432/sandbox',
        PROFILE: 'berlin-group',
        HOME: '/x',
      }),
    }).toEqual({
      PORT: 8080,
      TLS_PORT: 3443,
      PUBLIC_BASE_URL: 'https://sandbox.example',
      DATABASE_PATH: 'data/sandbox.sqlite',
      DATABASE_URL: 'postgres://sandbox:secret@db:5432/sandbox',
      SCA_MODE: 'redirect',
      LOG_LEVEL: 'info',
      AUTH_MODE: 'open',
      PROFILE: 'berlin-group',
      SANDBOX_CONTROL: 'true',
      REGISTRATIONS_PER_HOUR: 100,
      WORLD_MAX_RESOURCES: 10_000,
      WORLD_IDLE_DAYS: 30,
      SANDBOX_DATE: '2026-01-31',
    });
  });

  it('refuses bad values with a message naming each of them', () => {
    expect(() =>
      validateEnvironment({
        PORT: 'eighty',
        SCA_MODE: 'manual',
        SANDBOX_DATE: '2026-02-30',
        PUBLIC_BASE_URL: 'localhost',
        DATABASE_URL: 'mysql://db/sandbox',
      }),
    ).toThrow(
      [
        'Invalid configuration:',
        '  PORT="eighty": PORT must not be greater than 65535; PORT must not be less than 1; PORT must be an integer number',
        '  PUBLIC_BASE_URL="localhost": PUBLIC_BASE_URL must be a URL address',
        '  DATABASE_URL="mysql://db/sandbox": DATABASE_URL must be a postgres:// URL',
        '  SCA_MODE="manual": SCA_MODE must be one of the following values: auto, redirect',
        '  SANDBOX_DATE="2026-02-30": SANDBOX_DATE must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31',
      ].join('\n'),
    );
  });
});
