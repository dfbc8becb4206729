import { randomUUID } from 'node:crypto';
import { TrustedBeneficiaries1796600000000 } from '../../migrations/1796600000000-TrustedBeneficiaries';
import type { SandboxService } from '../core/sandbox-service';
import type { FixtureFiles } from '../profile/bank-profile';
import { SCENARIO_FIELD, TRUSTED_BENEFICIARIES } from './trusted-beneficiaries-requests';
import { TrustedBeneficiariesModule } from './trusted-beneficiaries.module';
import { documentTrustedBeneficiaries } from './trusted-beneficiaries-document';
import { documentFixtureTrustedBeneficiariesConsent, fixtureTrustedBeneficiariesConsent } from './fixture-consent';
import { exemptsTrustedBeneficiaries, TrustedBeneficiaries } from './trusted-beneficiaries.service';
import { TrustedBeneficiary } from './trusted-beneficiary.entity';
import schema from './fixtures.schema.json';

/** A payee a scenario's holder trusts (the scenario DTO's trustedBeneficiaries). */
interface ScenarioTrustedBeneficiary {
  creditorIban: string;
  creditorName: string;
  creditorAlias?: string;
}

/** One entry of trustedBeneficiaries.json (docs/trusted-beneficiaries.md). */
interface FixtureTrustedBeneficiary {
  trustedBeneficiaryId: string;
  psuId: string;
  debtorAccount?: string;
  creditorAccount: string;
  creditorName: string;
  creditorAgent?: string;
  creditorAlias?: string;
}

declare module '../common/error-catalogue' {
  interface ServiceMessages {
    XS2A057E: 'trustedBeneficiariesNotGranted';
  }
}

declare module '../profile/bank-profile' {
  interface ProfileSettings {
    trustedBeneficiaries?: boolean;
  }
  interface ScaExemptionSettings {
    trustedBeneficiaries?: boolean;
  }
}

/** Trusted beneficiaries (docs/trusted-beneficiaries.md), where the profile sets trustedBeneficiaries: true. */
export const trustedBeneficiariesService: SandboxService = {
  name: TRUSTED_BENEFICIARIES,
  profileKeys: {
    trustedBeneficiaries: {
      description:
        'Trusted beneficiaries (docs/trusted-beneficiaries.md): GET /v1/trusted-beneficiaries and the consent access additionalInformation.trustedBeneficiaries, from the fixture file trustedBeneficiaries.json and scenarios. Absent or false: not offered.',
      type: 'boolean',
    },
    'scaExemptions.trustedBeneficiaries': {
      description:
        "true: a payment to a trusted beneficiary of its debtor account's holder needs no SCA (needs trustedBeneficiaries: true).",
      type: 'boolean',
    },
  },
  offeredBy: (settings) => settings.trustedBeneficiaries === true,
  module: () => TrustedBeneficiariesModule,
  entities: [TrustedBeneficiary],
  migrations: [TrustedBeneficiaries1796600000000],
  messages: {
    XS2A057E: {
      name: 'trustedBeneficiariesNotGranted',
      status: 401,
      code: 'CONSENT_INVALID',
      when: 'trusted beneficiaries: the consent does not ask for them (`access.additionalInformation.trustedBeneficiaries`)',
    },
  },
  requestGroup: TRUSTED_BENEFICIARIES,
  fixtures: {
    name: TRUSTED_BENEFICIARIES,
    schema,
    problems: (entries: FixtureTrustedBeneficiary[], { psus }: FixtureFiles) => {
      const problems: [string, string][] = [];
      const holders = new Map(psus.flatMap(({ psuId, accounts }) => accounts.map((iban) => [iban, psuId])));
      const ids = new Set<string>();
      entries.forEach(({ trustedBeneficiaryId, psuId, debtorAccount }, index) => {
        if (ids.has(trustedBeneficiaryId)) problems.push([`[${index}].trustedBeneficiaryId`, `${trustedBeneficiaryId} is listed twice`]);
        ids.add(trustedBeneficiaryId);
        if (!psus.some((psu) => psu.psuId === psuId)) problems.push([`[${index}].psuId`, `${psuId} is not in psus.json`]);
        else if (debtorAccount !== undefined && holders.get(debtorAccount) !== psuId)
          problems.push([`[${index}].debtorAccount`, `account ${debtorAccount} is not held by ${psuId}`]);
      });
      return problems;
    },
    tables: (entries: FixtureTrustedBeneficiary[]) => [
      {
        entity: TrustedBeneficiary,
        conflictPaths: ['trustedBeneficiaryId'],
        rows: entries.map(
          ({
            trustedBeneficiaryId,
            psuId,
            debtorAccount,
            creditorAccount,
            creditorName,
            creditorAgent,
            creditorAlias,
          }): TrustedBeneficiary => ({
            trustedBeneficiaryId,
            psuId,
            debtorIban: debtorAccount ?? null,
            creditorIban: creditorAccount,
            creditorName,
            creditorAgent: creditorAgent ?? null,
            creditorAlias: creditorAlias ?? null,
            scenarioId: null,
          }),
        ),
      },
    ],
  },
  ports: {
    scaExemption: (get, { settings }) => (exemptsTrustedBeneficiaries(settings) ? get(TrustedBeneficiaries).exemption() : null),
  },
  settingsProblems: (settings) =>
    exemptsTrustedBeneficiaries(settings) && settings.trustedBeneficiaries !== true
      ? ['scaExemptions.trustedBeneficiaries: needs trustedBeneficiaries: true (the bank must list them to exempt them)']
      : [],
  scenario: {
    ...SCENARIO_FIELD,
    // Where the scenario's holder trusts payees, its consent lists them too (of every account).
    rows: ({ trustedBeneficiaries }: { trustedBeneficiaries?: ScenarioTrustedBeneficiary[] }, { scenarioId, psuId }) =>
      trustedBeneficiaries
        ? {
            tables: [
              {
                entity: TrustedBeneficiary,
                conflictPaths: ['trustedBeneficiaryId'],
                rows: trustedBeneficiaries.map(({ creditorIban, creditorName, creditorAlias }): TrustedBeneficiary => ({
                  trustedBeneficiaryId: randomUUID(),
                  psuId,
                  debtorIban: null,
                  creditorIban,
                  creditorName,
                  creditorAgent: null,
                  creditorAlias: creditorAlias ?? null,
                  scenarioId,
                })),
              },
            ],
            access: { trustedBeneficiaries: [] },
          }
        : { tables: [] },
    tables: [TrustedBeneficiary],
  },
  derivedFixtures: fixtureTrustedBeneficiariesConsent,
  document: (document, profile) => {
    documentTrustedBeneficiaries(document, {
      listed: profile.provides(TRUSTED_BENEFICIARIES),
      exempted: exemptsTrustedBeneficiaries(profile.settings),
    });
    if (profile.provides(TRUSTED_BENEFICIARIES)) documentFixtureTrustedBeneficiariesConsent(document);
  },
  summary: ({ settings }) => [
    `Trusted beneficiaries: listed; a payment to one ${exemptsTrustedBeneficiaries(settings) ? 'is exempted from SCA' : 'needs SCA as any other'}.`,
  ],
};
