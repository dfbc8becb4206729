// Unit specs live beside the code (src/), e2e specs under test/; one run takes both.
module.exports = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': 'ts-jest' },
  testEnvironment: 'node',
  // Finds (or, as root on Debian, installs) the Chromium the browser tests drive.
  globalSetup: '<rootDir>/test/support/find-browser.ts',
};
