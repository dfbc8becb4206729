import { loadProfile, ProfileError } from '../src/profile/load-profile';
import { SERVICES } from '../src/services';

/**
 * `npm run profile:check -- <folder or built-in name>`: checks a profile as the server does at
 * start, without starting (docs/profiles.md): one line per problem, exit code 1; or what it holds.
 */
function main(): number {
  const setting = process.argv[2];
  if (!setting) {
    console.error('Usage: npm run profile:check -- <profile folder or built-in name>');
    return 2;
  }
  try {
    const profile = loadProfile(setting, SERVICES);
    const { rows } = profile;
    console.log(
      `PROFILE=${setting} is valid: ${profile.name}, ${rows.psus.length} PSUs, ${rows.accounts.length} accounts, ${rows.transactions.length} transactions, ${rows.consents.length} consents, ${rows.clients.length} clients.`,
    );
    console.log(profile.summary());
    return 0;
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    console.error(error.message);
    return 1;
  }
}

process.exitCode = main();
