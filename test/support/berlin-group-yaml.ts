import { readFileSync } from 'node:fs';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { parse } from 'yaml';
import { visitObjects } from '../../src/http/berlin-group-answers';

/** One request a client sent and the answer it got, as the wire carried them. */
export interface Exchange {
  method: string;
  /** The path with its query string. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  /** The parsed JSON body, or the text where it is none. */
  responseBody: unknown;
}

/**
 * One way an exchange breaks the yaml: `key` names the operation (and a payment's
 * service), the status and the part (`createConsent 201 response header location`,
 * `initiatePayment periodic-payments 201 request requestBody`), `details` what the validator said.
 */
export interface Violation {
  key: string;
  details: string;
}

/**
 * Berlin Group's own OpenAPI file, read from where BERLIN_GROUP_YAML points, with a validator
 * nobody here wrote (openapi-backend, on Ajv): it matches an exchange to the yaml's operation and
 * checks the request (parameters, headers, body) and the answer (status, headers, body).
 */
export class BerlinGroupYaml {
  private constructor(private readonly api: OpenAPIBackend) {}

  /**
   * The validator compiles schemas as JSON Schema, where OpenAPI 3.0's boolean
   * `exclusiveMinimum`/`exclusiveMaximum` are numbers: they are translated, and its check of the
   * document, which trips on the same keyword, is left out (`quick`: docs/conformance.md).
   */
  static async load(file: string): Promise<BerlinGroupYaml> {
    const definition = parse(readFileSync(file, 'utf8')) as object;
    visitObjects(definition, (schema) => {
      for (const [exclusive, bound] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        if (typeof schema[exclusive] !== 'boolean') continue;
        if (schema[exclusive]) schema[exclusive] = schema[bound];
        else delete schema[exclusive];
        if (schema[exclusive] !== undefined) delete schema[bound];
      }
    });
    const api = new OpenAPIBackend({
      definition: definition as never,
      quick: true,
      strict: false,
      // The yaml's patterns are ECMA-262 regular expressions without the unicode flag (a `\-` in a character class).
      ajvOpts: { strict: false, unicodeRegExp: false },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return new BerlinGroupYaml(api);
  }

  /** Every operation of the yaml, by operationId. */
  get operationIds(): string[] {
    return this.api.getOperations().map(({ operationId }) => operationId!);
  }

  /** The yaml's operation of a request, if it has one. */
  operationOf(method: string, url: string): Operation | undefined {
    return this.api.matchOperation({ method, path: url.split('?')[0], headers: {} });
  }

  violations(exchange: Exchange): Violation[] {
    const operation = this.operationOf(exchange.method, exchange.url);
    if (!operation) return [];
    const found: Violation[] = [];
    // A payment's operations are one per service in the yaml: the key names the service too (a periodic payment's oneOf, say).
    const service = /^\/v1\/((?:bulk-|periodic-)?payments)\//.exec(exchange.url)?.[1];
    const key = (part: string) => `${operation.operationId}${service ? ` ${service}` : ''} ${exchange.status} ${part}`;
    const add = (part: string, errors: { instancePath: string; message?: string }[] | null | undefined) => {
      if (errors?.length)
        found.push({ key: key(part), details: errors.map(({ instancePath, message }) => `${instancePath || '/'} ${message}`).join('; ') });
    };
    const [path, query] = exchange.url.split('?');
    const request = this.api.validateRequest(
      { method: exchange.method, path, query: query ?? '', headers: exchange.requestHeaders, body: exchange.requestBody },
      operation,
    );
    const parts = new Set((request.errors ?? []).map(({ instancePath }) => instancePath.split('/')[1]));
    for (const part of parts)
      add(
        `request ${part}`,
        request.errors!.filter(({ instancePath }) => instancePath.split('/')[1] === part),
      );
    const status = String(exchange.status);
    if (!operation.responses?.[status]) {
      found.push({ key: key('status'), details: `not among ${Object.keys(operation.responses ?? {}).join(', ')}` });
      return found;
    }
    add('response body', this.api.validateResponse(exchange.responseBody, operation, exchange.status).errors);
    // openapi-backend's "superset" check takes every header as required; the yaml says which are.
    const headers = this.api.validateResponseHeaders(exchange.responseHeaders, operation, {
      statusCode: exchange.status,
      setMatchType: 'any' as never,
    });
    for (const error of headers.errors ?? []) add(`response header ${error.instancePath.split('/')[2]}`, [error]);
    const declared = Object.entries((operation.responses[status] as { headers?: Record<string, { required?: boolean }> }).headers ?? {});
    for (const [name] of declared.filter(
      ([name, header]) => header.required && exchange.responseHeaders[name.toLowerCase()] === undefined,
    )) {
      found.push({ key: key(`response header ${name.toLowerCase()}`), details: 'required, not sent' });
    }
    return found;
  }
}
