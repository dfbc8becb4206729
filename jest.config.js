// Unit specs live beside the code (src/), e2e specs under test/; one run takes both. The e2e
// suites whose answers depend on the profile run a second time in PROFILE=berlin-group
// (docs/profiles.md), and, given TEST_POSTGRES_URL, those not about the SQLite file a third time on
// PostgreSQL. How a run is put together and where its time goes: docs/development.md.
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  // ts-jest only transpiles (tsconfig.json's isolatedModules): the type check is a suite of its own
  // (test/static-checks.spec.ts), once a run rather than once a file in each project.
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
  setupFilesAfterEnv: ['<rootDir>/test/support/setup-matchers.ts'],
};

/**
 * The e2e suites that run again in PROFILE=berlin-group: those whose answers take Berlin Group's
 * shapes (statuses, bodies, links, the served document). Not these: the suites that name their
 * profile themselves (access-limit, profiles, bank-profile, fuzz, access) or drive the built server or
 * a browser; the Postman collection, written for the bank; and the suites about concurrency and
 * durability, whose answers are the same in every profile (races, acknowledged writes, a full disk:
 * they ask for a creation's status and nothing of its shape). Persistence stays: the seed and the
 * reset of berlin-group reach its services' tables.
 */
const BOTH_PROFILES = ['common', 'account-information', 'consents', 'payments', 'verification-of-payee', 'sca', 'scenarios', 'oauth', 'clock', 'persistence', 'openapi', 'sca-pages'];

/**
 * What runs on PostgreSQL too: every e2e suite (a new one included) whose answers can differ by
 * engine, that is every one but these. The SQLite file's own (its pragmas, WAL, locks, a full disk)
 * and the built server. The ones that do not depend on the engine: the served document (what it says
 * and its lint), the browser's reading of the docs, the SCA pages, the cockpit and the permission
 * dashboard (the routes behind their pages have headless suites that run on both: sca-pages, worlds
 * and world-snapshots, permission-dashboard), the removal proof, the conformance to Berlin Group's
 * yaml; and, since CI run 36, the clients' view of shapes: the third-party library and the Postman
 * collections (each flow they walk is a suite of its own on both engines: consents, payments, sca),
 * the formats' documents (made from the rows account-information and payments read on both), the
 * berlin-group profile's shapes (profiles) and Verification of Payee's name matching (plain
 * TypeScript over the fixtures). Each is about its shapes; what is stored, read back, ordered,
 * counted, raced or kept across a restart stays on both (docs/development.md, "Where a suite runs").
 * The unit spec of the prebuilt statements runs on PostgreSQL too (the other unit specs and the static
 * checks reach no database: they run once, in bank). test/postgres/ holds what needs PostgreSQL: several
 * instances on one database, its writes' held inserts, and a full disk, which needs a tablespace on a small filesystem that
 * .ci/run mounts where it may.
 */
const NOT_ON_POSTGRES = ['sqlite-file', 'disk-full', 'built-server', 'server-process', 'openapi', 'openapi-lint', 'swagger-examples', 'readme-walk', 'berlin-group-client', 'collection', 'formats', 'profiles', 'verification-of-payee', 'docs-browser', 'sca-browser', 'cockpit-browser', 'permission-dashboard-browser', 'service-removal', 'conformance', ...(process.env.TEST_POSTGRES_SMALL_TABLESPACE ? [] : ['full-tablespace'])];

module.exports = {
  // Two workers, each its own ports, databases and temporary folders (docs/development.md): jest's
  // default on a two-core machine is one.
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/support/sequencer.mjs',
  // A test's concurrency bursts (150 clock moves, 50 reads) take well under a second here, and CI
  // runs on machines loaded beside them stalled three of them past jest's 5 s default: how fast is
  // the benchmark's to say (docs/benchmark.md), not a timeout's. Long suites set their own.
  testTimeout: 30_000,
  // Finds (or, as root on Debian, installs) the Chromium the browser tests drive, builds the server
  // once and migrates and seeds each built-in profile once on each engine of the run.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    { ...common, displayName: 'bank', roots: ['<rootDir>/src', '<rootDir>/test'], testRegex: '.*\\.(spec|e2e-spec)\\.ts$', testPathIgnorePatterns: ['/test/postgres/'] },
    {
      ...common,
      displayName: 'berlin-group',
      roots: ['<rootDir>/test'],
      testRegex: `/(${BOTH_PROFILES.join('|')})\\.e2e-spec\\.ts$`,
      setupFiles: ['<rootDir>/test/support/berlin-group-run.ts'],
    },
    ...(process.env.TEST_POSTGRES_URL
      ? [
          {
            ...common,
            displayName: 'postgres',
            roots: ['<rootDir>/src', '<rootDir>/test'],
            testRegex: ['/test/.*\\.e2e-spec\\.ts$', '/prebuilt-statements\\.spec\\.ts$'],
            testPathIgnorePatterns: [`/(${NOT_ON_POSTGRES.join('|')})\\.e2e-spec\\.ts$`],
            setupFiles: ['<rootDir>/test/support/postgres-run.ts'],
          },
        ]
      : []),
  ],
};
