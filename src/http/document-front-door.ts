import type { OpenAPIObject } from '@nestjs/swagger';
import type { DeclaredRoute, RouteAccess } from './route-access';

/**
 * What a TPP engineer reads first in Swagger UI and what a generated client takes from the
 * document (docs/development.md, "The served document"): each group of operations described,
 * each operation said who calls it, operation IDs readable without Nest's `[n]` suffixes.
 */

type Operation = { operationId?: string; summary?: string; description?: string; tags?: string[] };

/** The core's groups; a service adds its own (SandboxService.tag). */
export const CORE_TAGS: readonly DocumentTag[] = [
  { name: 'Health', description: 'Whether the sandbox is up: migrated, seeded and listening.' },
  {
    name: 'Authentication',
    description:
      'Tokens for every /v1 request (the Authorize dialog says how to get one in this AUTH_MODE), and clients registered for AUTH_MODE=strict (RFC 7591, RFC 7592).',
  },
  { name: 'Consents', description: 'Account-information consents (AISP): create, read, delete, and their SCA authorisations.' },
  { name: 'Account information', description: 'Accounts, balances and transactions (AISP), read with a Consent-ID.' },
  {
    name: 'Payment initiation',
    description: 'Payments of every offered product and service (PISP): initiate, read, cancel, and their SCA.',
  },
  {
    name: 'Verification of Payee',
    description: 'Checks of a payee’s name against the account (Berlin Group 1.3.16), alone, in bulk or within a payment.',
  },
  {
    name: 'Sandbox control',
    description: 'The sandbox’s own routes for test suites: headless SCA, scenarios, the clock, conditions, events and certificates.',
  },
];

export interface DocumentTag {
  name: string;
  description: string;
}

const CALLER: Record<string, string> = {
  PSP_AI: 'an account information service provider (PSD2 role PSP_AI)',
  PSP_PI: 'a payment initiation service provider (PSD2 role PSP_PI)',
  PSP_IC: 'a card-based payment instrument issuer (PSD2 role PSP_IC)',
  VOP_RS: 'a payment service provider checking a payee (PSD2 role PSP_PI, or VOP_RS)',
  control: 'a test suite or bank team: the sandbox’s control API, no TPP role',
  holder: 'the account holder’s own pages and their headless twins, no TPP role',
  public: 'anyone: no token, no role',
};

const callerOf = (access: RouteAccess | undefined): string =>
  access === undefined ? CALLER.public : access.role !== null ? CALLER[access.role] : CALLER[access.audience];

/**
 * Global tags in the order given, each defined once, only those the operations use; an operation
 * whose tag is not among them stops the start, so that a new group cannot go undescribed.
 * Every operation gets a description: its summary, and who calls it.
 */
export function describeOperations(document: OpenAPIObject, tags: readonly DocumentTag[], routes: DeclaredRoute[]): void {
  const access = new Map(routes.map((route) => [`${route.method.toLowerCase()} ${route.path}`, route.access]));
  const used = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, Operation][]) {
      for (const tag of operation.tags ?? []) used.add(tag);
      operation.description = `${(operation.summary ?? '').replace(/\.$/, '')}.\n\nCalled by ${callerOf(access.get(`${method} ${path}`))}.`;
    }
  }
  const undefinedTags = [...used].filter((name) => !tags.some((tag) => tag.name === name));
  if (undefinedTags.length > 0) throw new Error(`The served document uses tags nobody describes: ${undefinedTags.join(', ')}`);
  document.tags = tags.filter((tag) => used.has(tag.name)).map((tag) => ({ ...tag }));
  readableOperationIds(document);
}

/**
 * Nest names an operation `<Controller>_<handler>` and numbers a handler served on several paths
 * (`_get[1]`). Each of those is told apart instead by the path segments that differ within its
 * group: `PaymentInitiationController_get_BulkPayments`.
 */
function readableOperationIds(document: OpenAPIObject): void {
  const groups = new Map<string, { path: string; operation: Operation }[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      const base = operation.operationId?.replace(/\[\d+\]$/, '');
      if (base === undefined || base === operation.operationId) continue;
      groups.set(base, [...(groups.get(base) ?? []), { path, operation }]);
    }
  }
  for (const [base, members] of groups) {
    const segments = members.map(({ path }) => path.split('/').filter((segment) => segment && !segment.startsWith('{')));
    const shared = (segment: string) => segments.every((list) => list.includes(segment));
    for (const [index, { operation }] of members.entries()) {
      const distinct = segments[index].filter((segment) => !shared(segment));
      operation.operationId = distinct.length > 0 ? `${base}_${distinct.map(pascal).join('')}` : base;
    }
  }
}

const pascal = (segment: string) =>
  segment
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
