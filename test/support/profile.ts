/**
 * The profile this run of the e2e suite answers in (docs/profiles.md): jest's `berlin-group`
 * project sets TEST_PROFILE and runs the suites again; every sandbox a test starts takes it unless
 * the test names a profile itself. The bodies the tests expect are written as the bank answers
 * them; `shaped` turns one into what the profile answers, independently of the app's own code.
 */
export const PROFILE: 'bank' | 'berlin-group' = process.env.TEST_PROFILE === 'berlin-group' ? 'berlin-group' : 'bank';

/** The status of a creation (POST /v1/consents, a payment initiation): the bank's 200, Berlin Group's 201. */
export const CREATED = PROFILE === 'berlin-group' ? 201 : 200;

/** A creation's `Location` (docs/profiles.md): the bank's path, or Berlin Group's absolute URL on the sandbox's PUBLIC_BASE_URL. */
export const locationOf = (path: string, baseUrl: string, profile: 'bank' | 'berlin-group' = PROFILE) =>
  profile === 'berlin-group' ? `${baseUrl}${path}` : path;

/** A redirect cancellation's startAuthorisation link: the bank's fixed text, or Berlin Group's link to the start (`path` is the payment's). */
export const cancellationStart = (path: string, profile: 'bank' | 'berlin-group' = PROFILE) => ({
  startAuthorisation: {
    href: profile === 'berlin-group' ? `${path}/cancellation-authorisations` : 'cancellation_authorisation_not_available',
  },
});

/** The status link of a resource's first authorisation: the seed bank's placeholder, Berlin Group's link by its ID. */
export const scaStatusHref = (resource: string, authorisationId: string, profile: 'bank' | 'berlin-group' = PROFILE) =>
  `${resource}/authorisations/${profile === 'bank' ? 'authorization_not_yet_available' : authorisationId}`;

/** A body over 100 KiB: the bank's 413, or 400 in Berlin Group (its yaml has no 413). */
export const TOO_LARGE = PROFILE === 'berlin-group' ? 400 : 413;

/**
 * A body as `profile` answers it: Berlin Group leaves out every null, every empty string, an empty
 * scaMethods or tppMessages list and a consent's empty access lists, a standing order's months
 * unless MonthlyVariable, and gives batchBookingPreferred as a boolean. Only plain objects and
 * arrays are walked, so jest's asymmetric matchers (expect.any, expect.stringMatching) stay as they are.
 */
export function inProfile<T>(profile: 'bank' | 'berlin-group', body: T, parent?: string): T {
  if (profile === 'bank') return body;
  if (Array.isArray(body)) return body.map((item) => inProfile(profile, item)) as T;
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype) return body;
  const empty = (key: string, value: unknown) =>
    value === '' || (Array.isArray(value) && value.length === 0 && (parent === 'access' || ['scaMethods', 'tppMessages'].includes(key)));
  const fields = Object.entries(body).filter(
    ([key, value]) =>
      value !== null &&
      !empty(key, value) &&
      !(key === 'monthsOfExecution' && (body as { frequency?: unknown }).frequency !== 'MonthlyVariable'),
  );
  return Object.fromEntries(
    fields.map(([key, value]) => [
      key,
      key === 'batchBookingPreferred' && typeof value === 'string' ? value === 'true' : inProfile(profile, value, key),
    ]),
  ) as T;
}

/** A body as this run's profile answers it. */
export const shaped = <T>(body: T): T => inProfile(PROFILE, body);

/** Account details: the bank's bare object, or Berlin Group's `{"account": …}`. */
export const accountDetails = <T>(account: T): T | { account: T } => shaped(PROFILE === 'berlin-group' ? { account } : account);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /** toEqual against the body as this run's profile answers it (`shaped`). */
      toEqualBody(expected: unknown): R;
      /** toMatchObject against the body as this run's profile answers it (`shaped`). */
      toMatchBody(expected: object): R;
    }
  }
}
