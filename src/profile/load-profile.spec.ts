import 'reflect-metadata'; // @peculiar/x509 (certificate-issuer.ts) needs it, as the app has it from Nest
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { BUILT_IN_FOLDER, loadProfile, ProfileError } from './load-profile';
import { createAuthority, issueCertificate, newSerial } from '../tpp-identity/certificate-issuer';
import { SERVICES } from '../services';
import type { SandboxService } from '../core/sandbox-service';

describe('loadProfile: extends', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-extends-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  };

  it('takes every key and fixture file of the profile it extends (itself extending another); its own replace them one by one', () => {
    write('child/profile.yaml', 'extends: berlin-group\nname: Child Bank\nscaApproaches: [embedded]\n');
    write('child/fixtures/clients.json', JSON.stringify([{ clientId: 'child-tpp', clientSecret: 's', name: 'Child TPP' }]));
    const child = loadProfile(join(folder, 'child'), SERVICES);
    const bank = loadProfile('bank', SERVICES);
    // Every key berlin-group sets but extends.
    const berlinGroup = parse(readFileSync(join(BUILT_IN_FOLDER, 'berlin-group', 'profile.yaml'), 'utf8'));
    delete berlinGroup.extends;
    expect(berlinGroup.answers).toBe('berlin-group');
    expect(child.settings).toEqual({ ...bank.settings, ...berlinGroup, name: 'Child Bank', scaApproaches: ['embedded'] });
    expect(child.rows.clients).toEqual([{ clientId: 'child-tpp', clientSecret: 's', name: 'Child TPP' }]);
    expect(child.rows.accounts).toEqual(bank.rows.accounts);
    expect(child.digest).not.toBe(bank.digest);
  });

  it('a path is read relative to the extending folder; the fixtures key names another folder', () => {
    write('grandchild/profile.yaml', 'extends: ../child\nfixtures: ../shared-data\n');
    write('shared-data/psus.json', '[]');
    // The trusted beneficiaries and cards berlin-group lists name its PSUs: without them, none.
    write('shared-data/trustedBeneficiaries.json', '[]');
    write('shared-data/cardAccounts.json', '[]');
    const grandchild = loadProfile(join(folder, 'grandchild'), SERVICES);
    expect(grandchild.name).toBe('Child Bank');
    expect(grandchild.rows.psus).toEqual([]);
    expect(grandchild.rows.clients.map(({ clientId }) => clientId)).toEqual(['child-tpp']);
  });

  it('profiles that extend each other in a circle are refused, naming the circle', () => {
    write('a/profile.yaml', 'extends: ../b\n');
    write('b/profile.yaml', 'extends: ../a\n');
    const [a, b] = ['a', 'b'].map((name) => relative(process.cwd(), join(folder, name, 'profile.yaml')));
    expect(() => loadProfile(join(folder, 'a'), SERVICES)).toThrow(
      `${a}: extends: the profiles extend each other in a circle (${a} -> ${b} -> ${a})`,
    );
  });
});

describe("loadProfile: a service's keys", () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-keys-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const file = relative(process.cwd(), join(folder, 'profile.yaml'));
  /** A service with a key of its own and one in scaExemptions. */
  const example: SandboxService = {
    name: 'example',
    profileKeys: { example: { type: 'boolean' }, 'scaExemptions.example': { type: 'boolean' } },
    offeredBy: (settings) => (settings as { example?: boolean }).example === true,
    module: () => class ExampleModule {},
    entities: [],
    document: () => undefined,
    summary: () => [],
  };
  const refusal = (services: SandboxService[]) => {
    try {
      loadProfile(folder, services);
    } catch (error) {
      return (error as ProfileError).problems;
    }
    return [];
  };
  const core =
    'extends, name, bic, answers, scaApproaches, paymentProducts, transactionReports, consents, vop, scaExemptions, tpp, fixtures';

  it("are a registered service's: a key no registered service has, at the top or in scaExemptions, stops the start naming it", () => {
    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\nexample: true\nscaExemptions:\n  example: false\n');
    expect(loadProfile(folder, [example]).provides('example')).toBe(true);
    expect(refusal([])).toEqual([
      `${file}: example: unknown key; allowed: ${core}`,
      `${file}: scaExemptions.example: unknown key; allowed: none`,
    ]);
    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\nexampel: true\n');
    expect(refusal([example])).toEqual([`${file}: exampel: unknown key; allowed: ${core}, example`]);
  });
});

describe('loadProfile: vop', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-vop-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('defaults to on-request and a close match from 0.8; a payee with a bad IBAN, one of the bank, or listed twice stops the start naming each', () => {
    expect(loadProfile('berlin-group', SERVICES).vop).toEqual({ mode: 'on-request', closeMatch: 0.8 });
    writeFileSync(
      join(folder, 'profile.yaml'),
      [
        'extends: bank',
        'vop:',
        '  mode: always',
        '  payees:',
        '    - { iban: DE43500105170012345679, name: Wrong Digits }',
        '    - { iban: AT439900000000010017, name: Georg Mustermann }',
        '    - { iban: DE89370400440532013000, name: Twice }',
        '    - { iban: DE89370400440532013000, name: Twice }',
        '',
      ].join('\n'),
    );
    const file = relative(process.cwd(), join(folder, 'profile.yaml'));
    const problems = [
      `${file}: vop.payees[0].iban: DE43500105170012345679 is not a valid IBAN (its check digits do not match)`,
      `${file}: vop.payees[1].iban: AT439900000000010017 is an account of this bank: its registered name is its name in accounts.json`,
      `${file}: vop.payees[3].iban: DE89370400440532013000 is listed twice`,
    ];
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
  });

  it('an unknown mode or a closeMatch out of range is refused by the schema', () => {
    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\nvop:\n  mode: sometimes\n  closeMatch: 1.5\n');
    expect(() => loadProfile(folder, SERVICES)).toThrow(/vop\.mode/);
    expect(() => loadProfile(folder, SERVICES)).toThrow(/vop\.closeMatch/);
  });
});

describe('loadProfile: tpp.trustedCAs', () => {
  const folder = mkdtempSync(join(tmpdir(), 'psd2-trusted-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("reads each CA's PEM relative to the profile's folder; a missing file, one that is no certificate, and a certificate that is not a CA's stop the start naming each", async () => {
    const authority = await createAuthority();
    const leaf = await issueCertificate(authority, newSerial(), {
      type: 'QSEAL',
      organisationName: 'Some TPP',
      organisationIdentifier: 'PSDXX-SBX-SOME',
      roles: ['PSP_AI'],
      notBefore: '2026-01-01',
      notAfter: '2027-01-01',
    });
    mkdirSync(join(folder, 'cas'));
    writeFileSync(join(folder, 'cas', 'bank-ca.pem'), authority.certificate);
    writeFileSync(join(folder, 'cas', 'notes.txt'), 'no certificate');
    writeFileSync(join(folder, 'cas', 'leaf.pem'), leaf.certificate);

    writeFileSync(join(folder, 'profile.yaml'), 'extends: bank\ntpp:\n  signatures: required\n  trustedCAs: [cas/bank-ca.pem]\n');
    expect(loadProfile(folder, SERVICES).trustedCAs).toEqual([authority.certificate]);

    writeFileSync(
      join(folder, 'profile.yaml'),
      'extends: bank\ntpp:\n  trustedCAs: [cas/bank-ca.pem, cas/missing.pem, cas/notes.txt, cas/leaf.pem]\n',
    );
    const file = relative(process.cwd(), join(folder, 'profile.yaml'));
    const problems = [
      `${file}: tpp.trustedCAs[1]: cas/missing.pem is not a file (relative to ${relative(process.cwd(), folder)})`,
      `${file}: tpp.trustedCAs[2]: cas/notes.txt is not a PEM certificate`,
      `${file}: tpp.trustedCAs[3]: cas/leaf.pem is a certificate but not a CA's`,
    ];
    expect(() => loadProfile(folder, SERVICES)).toThrow(
      `PROFILE=${folder} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
    );
  });
});
