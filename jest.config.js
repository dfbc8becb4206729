// Unit specs live beside the code (src/), e2e specs under test/; one run takes both. The e2e
// suites that are not about one profile run a second time in PROFILE=berlin-group (docs/profiles.md).
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
  setupFilesAfterEnv: ['<rootDir>/test/support/setup-matchers.ts'],
};

/**
 * The e2e suites that run again in PROFILE=berlin-group. The others name their profile themselves
 * (access-limit, profiles, fuzz), drive the built server or a browser, or run the Postman
 * collection, which is written for the bank.
 */
const BOTH_PROFILES = ['common', 'account-information', 'consents', 'payments', 'sca', 'scenarios', 'auth', 'clock', 'persistence', 'races', 'openapi', 'acknowledged-writes', 'sca-pages', 'disk-full'];

module.exports = {
  // Finds (or, as root on Debian, installs) the Chromium the browser tests drive.
  globalSetup: '<rootDir>/test/support/find-browser.ts',
  projects: [
    { ...common, displayName: 'bank', roots: ['<rootDir>/src', '<rootDir>/test'], testRegex: '.*\\.(spec|e2e-spec)\\.ts$' },
    {
      ...common,
      displayName: 'berlin-group',
      roots: ['<rootDir>/test'],
      testRegex: `/(${BOTH_PROFILES.join('|')})\\.e2e-spec\\.ts$`,
      setupFiles: ['<rootDir>/test/support/berlin-group-run.ts'],
    },
  ],
};
