import type { OpenAPIObject } from '@nestjs/swagger';
import type { SandboxService } from './core/sandbox-service';
import type { BankProfile } from './profile/bank-profile';
import { PAYMENT_SERVICES } from './payment-initiation/payment-products';
import { documentIdentity } from './tpp-identity/identity-document';
import { documentConsentAccess } from './consent/consent-access-document';
import { documentFor, schemasUsed, visitObjects } from './http/berlin-group-answers';
import type { DeclaredRoute } from './http/route-access';
import { documentEventKinds } from './events/events.dto';
import { VOP_MESSAGE_LIST } from './verification-of-payee/vop-message-list';
import { offeredFields } from './core/offered-by';
import { CORE_TAGS, describeOperations } from './http/document-front-door';
import { exampleParameters } from './common/document-examples';
import { documentFixturePayments, INSTALMENTS } from './payment-initiation/fixture-payments';
import { documentFixturePayeeCheck } from './verification-of-payee/fixture-checks';
import { documentErrorExamples } from './http/error-examples';
import { documentPain001 } from './payment-initiation/pain-document';
import { documentTransactionReports } from './account-information/report-document';

type Parameter = { name?: string; in?: string; schema?: { enum?: string[] }; example?: string };
type Schemas = Record<string, { properties?: Record<string, unknown> }>;
type Headers = { 'ASPSP-SCA-Approach'?: { schema?: { enum?: string[] } } };

/**
 * The document /docs-json serves describes the profile in force (docs/profiles.md): its answers'
 * shapes, only the payment products it offers (a service it offers none of is left out), only
 * its SCA approaches in ASPSP-SCA-Approach, and the certificate headers it asks for; each
 * registered service (`services`) says what it adds, and what the bank leaves out of it.
 */
export function documentForProfile(
  document: OpenAPIObject,
  profile: BankProfile,
  services: readonly SandboxService[],
  routes: DeclaredRoute[],
): OpenAPIObject {
  const used = schemasUsed(document, [document.paths]);
  for (const [path, operations] of Object.entries(document.paths)) {
    // A periodic payment's instalments, where the bank offers periodic payments.
    if (path === INSTALMENTS && !profile.settings.paymentProducts['periodic-payments']?.length) delete document.paths[path];
    const service = PAYMENT_SERVICES.find((name) => path.startsWith(`/v1/${name}/`));
    if (service === undefined) continue;
    const offered = [...(profile.settings.paymentProducts[service] ?? [])] as string[];
    const product = path.split('/')[3];
    if (offered.length === 0 || (product !== '{product}' && !offered.includes(product))) {
      delete document.paths[path];
      continue;
    }
    for (const operation of Object.values(operations) as { parameters?: Parameter[] }[]) {
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'path' && parameter.name === 'product') {
          parameter.schema = { ...parameter.schema, enum: offered };
          parameter.example = offered[0];
        }
    }
  }
  leaveOutUnoffered(document, profile.requestGroups, used);
  documentFixturePayments(document);
  documentPain001(document, profile);
  documentTransactionReports(document, profile);
  documentFixturePayeeCheck(document);
  // The core's examples first: a service's own (its fixtures) take their place.
  exampleParameters(document);
  for (const service of services) service.document(document, profile);
  documentEventKinds(document, profile);
  documentIdentity(document, profile, routes);
  documentConsentAccess(document, profile);
  describeOperations(document, [...CORE_TAGS, ...profile.services.flatMap((service) => (service.tag ? [service.tag] : []))], routes);
  visitObjects(document, (node) => {
    const approach = (node.headers as Headers | undefined)?.['ASPSP-SCA-Approach'];
    if (approach?.schema?.enum) approach.schema.enum = [...profile.approaches];
  });
  documentErrorExamples(document, profile.answers, [VOP_MESSAGE_LIST]);
  return documentFor(document, profile.answers === 'berlin-group', [VOP_MESSAGE_LIST]);
}

/**
 * The fields of services the bank does not offer (OfferedBy), and the schemas only they used, are
 * left out: what the validation pipe strips unread is not documented. So are the schemas only the
 * operations of unoffered products used (`before`: the schemas used before those were left out).
 */
function leaveOutUnoffered(document: OpenAPIObject, offered: string[], before: Set<string>): void {
  const schemas = document.components!.schemas as Schemas;
  for (const [dto, field, service] of offeredFields()) if (!offered.includes(service)) delete schemas[dto.name]?.properties?.[field];
  const after = schemasUsed(document, [document.paths]);
  for (const name of before) if (!after.has(name)) delete schemas[name];
}
