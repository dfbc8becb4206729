import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadProfile } from '../profile/load-profile';
import { SERVICES } from '../services';
import { TrustedBeneficiary } from './trusted-beneficiary.entity';
import { exemptsTrustedBeneficiaries } from './trusted-beneficiaries.service';

describe('loadProfile: trusted beneficiaries', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-beneficiaries-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('berlin-group lists and exempts them; an exemption or a fixture file without the list, an unknown PSU, an account not theirs and an ID twice stop the start naming each', () => {
    const berlinGroup = loadProfile('berlin-group', SERVICES);
    expect([
      berlinGroup.provides('trustedBeneficiaries'),
      exemptsTrustedBeneficiaries(berlinGroup.settings),
      berlinGroup.requestGroups.includes('trustedBeneficiaries'),
    ]).toEqual([true, true, true]);
    expect(berlinGroup.fixturesOf(TrustedBeneficiary).map(({ trustedBeneficiaryId }) => trustedBeneficiaryId)).toEqual([
      'tb-georg-stadtwerke',
      'tb-georg-franz',
      'tb-susanne-georg',
    ]);
    const bank = loadProfile('bank', SERVICES);
    expect([
      bank.provides('trustedBeneficiaries'),
      exemptsTrustedBeneficiaries(bank.settings),
      bank.requestGroups,
      bank.fixturesOf(TrustedBeneficiary),
    ]).toEqual([false, false, [], []]);

    mkdirSync(join(folder, 'fixtures'));
    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\nscaExemptions:\n  trustedBeneficiaries: true\n');
    const entry = (id: string, psuId: string, debtorAccount?: string) => ({
      trustedBeneficiaryId: id,
      psuId,
      ...(debtorAccount ? { debtorAccount } : {}),
      creditorAccount: 'DE89370400440532013000',
      creditorName: 'Payee',
    });
    writeFileSync(
      join(folder, 'fixtures', 'trustedBeneficiaries.json'),
      JSON.stringify([entry('a', 'nobody'), entry('b', 'georg.mustermann', 'AT959900000000012476'), entry('b', 'susanne.mustermann')]),
    );
    const file = relative(process.cwd(), join(folder, 'profile.yaml'));
    const fixtures = relative(process.cwd(), join(folder, 'fixtures', 'trustedBeneficiaries.json'));
    const unlisted = [
      `${fixtures}: needs trustedBeneficiaries: true in ${file} (a bank that does not offer it holds none of its fixtures)`,
      `${file}: scaExemptions.trustedBeneficiaries: needs trustedBeneficiaries: true (the bank must list them to exempt them)`,
    ];
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n${unlisted.map((problem) => `  ${problem}`).join('\n')}`,
    );

    writeFileSync(
      join(folder, 'profile.yaml'),
      'extends: bank\ntrustedBeneficiaries: true\nscaExemptions:\n  trustedBeneficiaries: true\n',
    );
    const problems = [
      `${fixtures}: [0].psuId: nobody is not in psus.json`,
      `${fixtures}: [1].debtorAccount: account AT959900000000012476 is not held by georg.mustermann`,
      `${fixtures}: [2].trustedBeneficiaryId: b is listed twice`,
    ];
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
  });
});
