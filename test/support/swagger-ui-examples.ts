import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The request Swagger UI sends when a user presses Try it out and then Execute without typing
 * anything, after Authorize: each parameter prefilled as Swagger UI prefills it (its first
 * `examples` entry, its `example`, its schema's `example`, its schema's `default`, in that order;
 * an empty one is not sent), the body from the media type's first example, the token on every
 * operation whose `security` names the bearer scheme; `path` is below the document's server.
 */
export interface ExampleRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  documented: string[];
}

type Schema = {
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  readOnly?: boolean;
  $ref?: string;
};
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: Schema;
  $ref?: string;
};
type Media = { example?: unknown; examples?: Record<string, { value?: unknown }>; schema?: Schema };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

const firstExample = (node: { example?: unknown; examples?: Record<string, { value?: unknown }> }): unknown =>
  node.examples ? Object.values(node.examples)[0]?.value : node.example;

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The body Swagger UI makes of a schema without an example of the media type's: each property's
 * example, else its default, else its first enum value, else a value of its type (swagger-ui's
 * sample generator, as far as this document uses it).
 */
function sample(reference: Schema | undefined, document: OpenAPIObject): unknown {
  const schema = resolve(reference, document);
  if (schema === undefined) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const first = (schema.allOf ?? schema.oneOf ?? schema.anyOf)?.[0];
  if (first) return sample(first, document);
  if (schema.type === 'array') return [sample(schema.items, document)];
  if (schema.type === 'object' || schema.properties) {
    const entries = Object.entries(schema.properties ?? {}).filter(([, property]) => !resolve(property, document)?.readOnly);
    return Object.fromEntries(entries.map(([name, property]) => [name, sample(property, document)]));
  }
  return { string: 'string', number: 0, integer: 0, boolean: true }[schema.type ?? 'string'];
}

/** Swagger UI's form for a urlencoded body: one field a property, prefilled from its example or default. */
function formBody(schema: Schema | undefined, document: OpenAPIObject): string {
  const resolved = resolve(schema, document);
  const fields = Object.entries(resolved?.properties ?? {})
    .map(([name, property]) => [name, property.example ?? property.default] as const)
    .filter(([, value]) => value !== undefined && value !== '');
  // Swagger UI encodes a space as %20, not as URLSearchParams' +.
  return fields.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(asText(value))}`).join('&');
}

function resolve<T extends { $ref?: string }>(node: T | undefined, document: OpenAPIObject): T | undefined {
  if (!node?.$ref) return node;
  const path = node.$ref.replace(/^#\//, '').split('/');
  return path.reduce((at: unknown, key) => (at as Record<string, unknown>)[key], document) as T;
}

export function exampleRequests(document: OpenAPIObject, token: string): ExampleRequest[] {
  const requests: ExampleRequest[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const headers: Record<string, string> = {};
      const query = new URLSearchParams();
      let filled = path;
      for (const reference of operation.parameters ?? []) {
        const parameter = resolve(reference, document)!;
        const schema = resolve(parameter.schema, document);
        const value = firstExample(parameter) ?? schema?.example ?? schema?.default;
        // Swagger UI does not send a request whose required parameter is empty: the document must prefill each.
        if ((value === undefined || value === '') && (parameter.in === 'path' || parameter.required))
          throw new Error(`${method.toUpperCase()} ${path}: ${parameter.in} parameter ${parameter.name} has no example`);
        if (value === undefined || value === '') continue;
        if (parameter.in === 'path') filled = filled.replace(`{${parameter.name}}`, encodeURIComponent(asText(value)));
        else if (parameter.in === 'query') query.append(parameter.name, asText(value));
        else if (parameter.in === 'header') headers[parameter.name] = asText(value);
      }
      if (operation.security?.some((scheme) => 'bearer' in scheme)) headers.Authorization = `Bearer ${token}`;
      let body: string | undefined;
      const [mediaType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      if (mediaType && media) {
        headers['Content-Type'] = mediaType;
        body =
          mediaType === 'application/x-www-form-urlencoded'
            ? formBody(media.schema, document)
            : asText(firstExample(media) ?? sample(media.schema, document));
      }
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      const accept = Object.keys(success?.[1].content ?? {})[0];
      headers.Accept = accept ?? '*/*';
      const search = query.toString();
      requests.push({
        operation: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path: `${filled}${search ? `?${search}` : ''}`,
        headers,
        body,
        documented: Object.keys(operation.responses),
      });
    }
  }
  return requests;
}

/**
 * A signing basket's members must wait for SCA in the caller's world, and no fixture waits (they
 * stay as they are): its example names the fixture payment and is answered with what to do instead.
 */
const WITHOUT_FIXTURE_OPERATIONS = ['POST /v1/signing-baskets'];
/** RFC 7592's routes answer 401 without the registration access token the registration answered. */
const REGISTRATION_TOKEN = /^(GET|DELETE) \/register\/\{clientId\}$/;

const holdsNoFixture = (example: ExampleRequest) => WITHOUT_FIXTURE_OPERATIONS.includes(example.operation);

/**
 * Whether an example's answer is one its operation documents: no 5xx, a listed status, no 400 or
 * 401 (RFC 7592's routes: their 401), and 2xx for a GET or a creating POST (one without a path
 * parameter). Operations on resources no fixture names only have to answer a listed status.
 */
export function answersAsDocumented(example: ExampleRequest, status: number): boolean {
  const creates = example.method === 'POST' && !example.operation.includes('{');
  const documented = status < 500 && example.documented.includes(String(status));
  const expected = REGISTRATION_TOKEN.test(example.operation)
    ? status === 401
    : ![400, 401].includes(status) && (!(example.method === 'GET' || creates) || (status >= 200 && status < 300));
  return documented && (holdsNoFixture(example) || expected);
}

/**
 * What of an example decides how Swagger UI sends it: its operation, the names of its headers and
 * query parameters, the keys of its JSON body, and where its values hold something other than
 * letters and digits, which Swagger UI encodes alike (a space, a slash, an ampersand, a UTF-8
 * character). Two examples of one shape are sent alike; the browser suite presses Execute once a
 * shape (docs/development.md, "The served document").
 */
export function exampleShape(example: ExampleRequest): string {
  const values = (text: string) => text.replace(/[A-Za-z0-9]+/g, 'x');
  const json = (value: unknown): unknown =>
    typeof value === 'string'
      ? values(value)
      : typeof value === 'number'
        ? 0
        : Array.isArray(value)
          ? value.map(json)
          : value !== null && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, json(field)]))
            : value;
  const [path, query = ''] = example.path.split('?');
  const headers = Object.entries(example.headers).filter(([name]) => name !== 'X-Request-ID');
  let body: unknown = example.body;
  if (body !== undefined && example.headers['Content-Type']?.endsWith('json')) body = json(JSON.parse(example.body!));
  else if (body !== undefined) body = values(example.body!);
  return JSON.stringify([
    example.operation,
    values(path),
    query.replace(/=[^&]*/g, (value) => values(value)),
    headers.map(([name, value]) => [name, values(value)]),
    body,
  ]);
}
