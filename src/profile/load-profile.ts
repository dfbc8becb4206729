import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import { isValidIban } from '../common/iban';
import type { FixtureTable, SandboxService } from '../core/sandbox-service';
import { BankProfile, FixtureFiles, ProfileSettings } from './bank-profile';
import fixturesSchema from './fixtures.schema.json';
import profileSchema from './profile.schema.json';

/**
 * A profile folder read into a BankProfile (docs/profiles.md): profile.yaml, the profiles it
 * extends, and its fixture files, each checked against the schemas beside this file and against
 * each other. Every problem found is one line naming the file, the key and what is allowed.
 */

/** A profile that cannot be served: the start stops with these lines. */
export class ProfileError extends Error {
  constructor(
    readonly setting: string,
    readonly problems: string[],
  ) {
    super(`PROFILE=${setting} cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

const FIXTURE_FILES = ['psus', 'accounts', 'transactions', 'consents', 'clients'] as const;
/** A core fixture file's name, or a service's. */
type FixtureName = string;
/** A fixture file a profile leaves out holds nothing. */
const EMPTY: FixtureFiles = { psus: [], accounts: [], transactions: {}, consents: { stored: [] }, clients: [] };

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictRequired: false }).addSchema(fixturesSchema);

type Settings = Partial<ProfileSettings> & { extends?: string; fixtures?: string };
type SettingsValidator = ValidateFunction<Settings>;
const settingsValidators = new WeakMap<readonly SandboxService[], SettingsValidator>();

/**
 * profile.schema.json with the services' keys added, every map closed: a key neither the core nor a
 * registered service knows stops the start (docs/profiles.md, "A service's keys"). Compiled once a registry.
 */
function settingsValidator(services: readonly SandboxService[]): SettingsValidator {
  let validate = settingsValidators.get(services);
  if (validate) return validate;
  type Map = { properties: Record<string, Map>; additionalProperties?: unknown; $id?: string };
  const schema = structuredClone(profileSchema) as unknown as Map;
  // Each registry's schema is one of its own, under no $id.
  delete schema.$id;
  for (const [path, keySchema] of services.flatMap((service) => Object.entries(service.profileKeys))) {
    const [key, member] = path.split('.');
    if (member === undefined) schema.properties[key] = keySchema as Map;
    else schema.properties[key].properties[member] = keySchema as Map;
  }
  // The maps the file leaves open are those the services add to: closed once they have.
  for (const map of [
    schema,
    ...Object.values(schema.properties).filter((property) => property.properties && !('additionalProperties' in property)),
  ])
    Object.assign(map, { additionalProperties: false });
  validate = ajv.compile<Settings>(schema);
  settingsValidators.set(services, validate);
  return validate;
}

/** The folder of the built-in profiles: `profiles/` of the repository, found above this file in src/ and in dist/. */
export const BUILT_IN_FOLDER = (() => {
  for (let folder = __dirname; folder !== dirname(folder); folder = dirname(folder)) {
    if (existsSync(join(folder, 'profiles', 'bank', 'profile.yaml'))) return join(folder, 'profiles');
  }
  throw new Error(`The built-in profiles (profiles/bank/profile.yaml) were not found above ${__dirname}`);
})();

export const builtInProfiles = (): string[] =>
  readdirSync(BUILT_IN_FOLDER).filter((name) => existsSync(join(BUILT_IN_FOLDER, name, 'profile.yaml')));

/**
 * Reads and checks the profile PROFILE names: a built-in name, or a folder relative to the working
 * directory. `services` are the registered ones (src/services.ts): the profile offers some of them.
 */
export function loadProfile(setting: string, services: readonly SandboxService[]): BankProfile {
  const problems: string[] = [];
  const profile = read(setting, services, problems);
  if (problems.length > 0 || profile === undefined) throw new ProfileError(setting, problems);
  return profile;
}

/** One level of a profile: its folder's settings, and where each of its own fixture files is. */
interface Level {
  file: string;
  settings: Settings;
  fixtures: Partial<Record<FixtureName, string>>;
  /** tpp.trustedCAs read: the PEM of each, when this level sets tpp. */
  trustedCAs?: string[];
}

function read(setting: string, services: readonly SandboxService[], problems: string[]): BankProfile | undefined {
  const folder = folderOf(setting, process.cwd());
  if (folder === undefined) {
    problems.push(
      `PROFILE: ${setting} is neither a built-in profile (${builtInProfiles().join(', ')}) nor a folder holding a profile.yaml`,
    );
    return undefined;
  }
  const names = [...FIXTURE_FILES, ...services.flatMap(({ fixtures }) => (fixtures ? [fixtures.name] : []))];
  for (const { fixtures } of services) if (fixtures && !ajv.getSchema(fixtures.name)) ajv.addSchema(fixtures.schema, fixtures.name);
  const validate = settingsValidator(services);
  const levels = chain(folder, names, validate, problems);
  if (levels === undefined) return undefined;
  // Each level's keys and fixture files replace those of the profile it extends, one by one.
  const settings = Object.assign({}, ...levels.map((level) => level.settings)) as Level['settings'];
  delete settings.extends;
  delete settings.fixtures;
  const top = levels[levels.length - 1].file;
  if (!validate(settings)) {
    for (const error of validate.errors ?? [])
      if (error.keyword === 'required')
        problems.push(`${shown(top)}: ${error.params.missingProperty}: required (neither this profile nor one it extends sets it)`);
    return undefined;
  }
  const where = Object.assign({}, ...levels.map((level) => level.fixtures)) as Level['fixtures'];
  const files = { ...EMPTY };
  const own = new Map<string, unknown>();
  for (const name of names) {
    const file = where[name];
    if (file === undefined) continue;
    const content = readJson(file, problems);
    const core = (FIXTURE_FILES as readonly string[]).includes(name);
    const validate = ajv.getSchema(core ? `fixtures.schema.json#/definitions/${name}.json` : name)!;
    if (content === undefined) continue;
    if (!validate(content)) problems.push(...(validate.errors ?? []).map((error) => describe(file, error)));
    else if (core) Object.assign(files, { [name]: content });
    else own.set(name, content);
  }
  if (problems.length > 0) return undefined;
  const offered = services.filter((service) => service.offeredBy(settings as ProfileSettings));
  for (const { name, fixtures } of services) {
    if (fixtures && own.has(fixtures.name) && !offered.some((service) => service.name === name)) {
      problems.push(
        `${shown(where[fixtures.name]!)}: needs ${name}: true in ${shown(top)} (a bank that does not offer it holds none of its fixtures)`,
      );
    }
  }
  problems.push(
    ...services.flatMap((service) =>
      (service.settingsProblems?.(settings as ProfileSettings) ?? []).map((problem) => `${shown(top)}: ${problem}`),
    ),
  );
  problems.push(...referenceProblems(files, where), ...payeeProblems(settings as ProfileSettings, files, top));
  const tables: FixtureTable[] = [];
  for (const { fixtures } of offered) {
    if (!fixtures || !own.has(fixtures.name)) continue;
    const content = own.get(fixtures.name) as never;
    problems.push(...fixtures.problems(content, files).map(([key, text]) => `${shown(where[fixtures.name]!)}: ${key}: ${text}`));
    tables.push(...fixtures.tables(content, files));
  }
  if (problems.length > 0) return undefined;
  // The CAs' contents, not their paths, identify the profile: two instances may mount it in different places.
  const trustedCAs = [...levels].reverse().find((level) => level.trustedCAs !== undefined)?.trustedCAs ?? [];
  const digest = createHash('sha256')
    .update(
      JSON.stringify({
        settings: { ...settings, tpp: settings.tpp && { ...settings.tpp, trustedCAs } },
        files: { ...files, ...Object.fromEntries(own) },
      }),
    )
    .digest('hex');
  return new BankProfile(setting, settings as ProfileSettings, files, offered, tables, digest, trustedCAs);
}

/** A built-in profile's folder by its name, else the folder the path names (relative to `base`), if it holds a profile.yaml. */
function folderOf(name: string, base: string): string | undefined {
  const builtIn = /^[\w-]+$/.test(name) ? join(BUILT_IN_FOLDER, name) : undefined;
  for (const folder of [builtIn, resolve(base, name)]) if (folder && existsSync(join(folder, 'profile.yaml'))) return folder;
  return undefined;
}

/** The profile and every profile it extends, the farthest first. */
function chain(folder: string, names: string[], validate: SettingsValidator, problems: string[], seen: string[] = []): Level[] | undefined {
  const file = join(folder, 'profile.yaml');
  if (seen.includes(file)) {
    problems.push(`${shown(file)}: extends: the profiles extend each other in a circle (${[...seen, file].map(shown).join(' -> ')})`);
    return undefined;
  }
  const settings = readYaml(file, problems);
  if (settings === undefined) return undefined;
  if (!validate(settings)) {
    problems.push(
      ...(validate.errors ?? [])
        .filter((error) => error.keyword !== 'if' && error.keyword !== 'required')
        .map((error) => describe(file, error)),
    );
    if (problems.length > 0) return undefined;
  }
  const fixtureFolder = resolve(folder, settings.fixtures ?? 'fixtures');
  if (settings.fixtures !== undefined && !isFolder(fixtureFolder)) {
    problems.push(`${shown(file)}: fixtures: ${settings.fixtures} is not a folder (relative to ${shown(folder) || '.'})`);
    return undefined;
  }
  const fixtures = Object.fromEntries(
    names.map((name) => [name, join(fixtureFolder, `${name}.json`)]).filter(([, path]) => existsSync(path)),
  );
  const trustedCAs = settings.tpp && readAuthorities(folder, file, settings.tpp.trustedCAs ?? [], problems);
  if (trustedCAs === null) return undefined;
  const level: Level = { file, settings, fixtures, trustedCAs };
  if (settings.extends === undefined) return [level];
  const parent = folderOf(settings.extends, folder);
  if (parent === undefined) {
    problems.push(
      `${shown(file)}: extends: ${settings.extends} is neither a built-in profile (${builtInProfiles().join(', ')}) nor a folder holding a profile.yaml`,
    );
    return undefined;
  }
  const above = chain(parent, names, validate, problems, [...seen, file]);
  return above && [...above, level];
}

/** tpp.trustedCAs: PEM files relative to the profile's folder, each a CA certificate; null when one is not. */
function readAuthorities(folder: string, file: string, paths: string[], problems: string[]): string[] | null {
  const read = paths.map((path, index) => {
    const at = `${shown(file)}: tpp.trustedCAs[${index}]: ${path}`;
    const pem = existsSync(resolve(folder, path)) ? readFileSync(resolve(folder, path), 'utf8') : undefined;
    if (pem === undefined) return (problems.push(`${at} is not a file (relative to ${shown(folder) || '.'})`), null);
    try {
      if (!new X509Certificate(pem).ca) return (problems.push(`${at} is a certificate but not a CA's`), null);
    } catch {
      return (problems.push(`${at} is not a PEM certificate`), null);
    }
    return pem;
  });
  return read.includes(null) ? null : (read as string[]);
}

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** A path as messages show it: relative to the working directory. */
const shown = (path: string) => relative(process.cwd(), path) || path;

function readYaml(file: string, problems: string[]): Level['settings'] | undefined {
  const document = parseDocument(readFileSync(file, 'utf8'), { uniqueKeys: true });
  if (document.errors.length > 0) {
    // The parser's message ends with the line it points at; the first line says what is wrong, with where.
    problems.push(...document.errors.map((error) => `${shown(file)}: not YAML: ${error.message.split('\n')[0]}`));
    return undefined;
  }
  const value: unknown = document.toJS();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${shown(file)}: must be a map of keys (docs/profiles.md)`);
    return undefined;
  }
  return value;
}

function readJson(file: string, problems: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    problems.push(`${shown(file)}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** `/consents/maxValidityDays` as `consents.maxValidityDays`, `/0/accounts/1` as `[0].accounts[1]`. */
function keyOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** One schema error as a line: the file, the key, what is allowed. */
function describe(file: string, error: ErrorObject): string {
  const key = keyOf(error.instancePath);
  const at = (name: string) => [key, name].filter(Boolean).join(key && !name.startsWith('[') ? '.' : '');
  const got = ` (got ${JSON.stringify(error.data)})`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${shown(file)}: ${at(error.params.additionalProperty)}: unknown key; allowed: ${Object.keys((error.parentSchema as { properties: object }).properties).join(', ') || 'none'}`;
    case 'required':
      return `${shown(file)}: ${at(error.params.missingProperty)}: required`;
    case 'enum':
      return `${shown(file)}: ${key}: must be one of ${(error.params.allowedValues as unknown[]).map(String).join(', ')}${got}`;
    case 'propertyNames':
      return `${shown(file)}: ${key || '(top level)'}: every key must be an IBAN${got}`;
    default:
      return `${shown(file)}: ${key || '(top level)'}: ${error.message}${typeof error.data === 'object' ? '' : got}`;
  }
}

/** vop.payees: valid IBANs at other banks, each listed once. */
function payeeProblems({ vop }: ProfileSettings, files: FixtureFiles, file: string): string[] {
  const ours = new Set(files.accounts.map(({ iban }) => iban));
  const seen = new Set<string>();
  return (vop?.payees ?? []).flatMap(({ iban }, index) => {
    const at = (text: string) => `${shown(file)}: vop.payees[${index}].iban: ${text}`;
    const problem = !isValidIban(iban)
      ? at(`${iban} is not a valid IBAN (its check digits do not match)`)
      : ours.has(iban)
        ? at(`${iban} is an account of this bank: its registered name is its name in accounts.json`)
        : seen.has(iban)
          ? at(`${iban} is listed twice`)
          : undefined;
    seen.add(iban);
    return problem === undefined ? [] : [problem];
  });
}

/** What the schemas cannot say: every account named exists, once; IBANs are valid; IDs are unique. */
function referenceProblems(files: FixtureFiles, where: Level['fixtures']): string[] {
  const problems: string[] = [];
  const at = (name: FixtureName, key: string, text: string) => problems.push(`${shown(where[name]!)}: ${key}: ${text}`);
  const ibans = new Set<string>();
  files.accounts.forEach(({ iban, balances }, index) => {
    if (!isValidIban(iban)) at('accounts', `[${index}].iban`, `${iban} is not a valid IBAN (its check digits do not match)`);
    if (ibans.has(iban)) at('accounts', `[${index}].iban`, `${iban} is listed twice`);
    ibans.add(iban);
    if (balances[0].balanceType === balances[1].balanceType)
      at('accounts', `[${index}].balances`, 'must hold forwardAvailable and interimAvailable once each');
  });
  const missing = (iban: string) => `account ${iban} is not in accounts.json`;
  const holders = new Map<string, string>();
  const psuIds = new Set<string>();
  files.psus.forEach(({ psuId, accounts }, index) => {
    if (psuIds.has(psuId)) at('psus', `[${index}].psuId`, `${psuId} is listed twice`);
    psuIds.add(psuId);
    accounts.forEach((iban, position) => {
      if (!ibans.has(iban)) at('psus', `[${index}].accounts[${position}]`, missing(iban));
      else if (holders.has(iban)) at('psus', `[${index}].accounts[${position}]`, `account ${iban} is already held by ${holders.get(iban)}`);
      holders.set(iban, psuId);
    });
  });
  const transactionIds = new Set<string>();
  for (const [iban, lists] of Object.entries(files.transactions)) {
    if (!ibans.has(iban)) at('transactions', iban, missing(iban));
    for (const [status, list] of Object.entries(lists)) {
      list.forEach(({ transactionId }, index) => {
        if (transactionIds.has(transactionId))
          at('transactions', `${iban}.${status}[${index}].transactionId`, `${transactionId} is used twice`);
        transactionIds.add(transactionId);
      });
    }
  }
  const consentIds = new Set<string>();
  files.consents.stored.forEach(({ id, accounts }, index) => {
    if (consentIds.has(id)) at('consents', `stored[${index}].id`, `${id} is listed twice`);
    consentIds.add(id);
    accounts.forEach((iban, position) => {
      if (!ibans.has(iban)) at('consents', `stored[${index}].accounts[${position}]`, missing(iban));
    });
  });
  const clientIds = new Set<string>();
  files.clients.forEach(({ clientId }, index) => {
    if (clientIds.has(clientId)) at('clients', `[${index}].clientId`, `${clientId} is listed twice`);
    clientIds.add(clientId);
  });
  return problems;
}
