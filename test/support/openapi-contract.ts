import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { XMLValidator } from 'fast-xml-parser';

/** JSON pointer escaping, for $refs into the document. */
const pointer = (...segments: string[]) => segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * One Ajv for a test file's contracts, each document added once under the hash of its text, and each
 * schema compiled once a document: a file starts many apps that serve the same document, and a new
 * Ajv compiles its meta-schemas again (about 50 ms a start, docs/development.md).
 */
const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
const validators = new Map<string, ValidateFunction>();

/**
 * Checks every answer a test receives against the OpenAPI document the app serves: the status must
 * be listed for the operation, its media type documented for it, and a JSON body must match its schema. Answers of paths the document
 * does not describe (unknown routes, the SCA pages, Swagger UI itself) are not operations and are left alone.
 */
export class OpenApiContract {
  readonly failures: string[] = [];
  checked = 0;
  private readonly id: string;
  private readonly paths: { template: string; pattern: RegExp; literals: number }[];

  constructor(private readonly document: OpenAPIObject) {
    this.id = `openapi-${createHash('sha256').update(JSON.stringify(document)).digest('hex')}`;
    if (!ajv.schemas[this.id]) ajv.addSchema(document as object, this.id);
    this.paths = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literals: template.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      }))
      // The most specific template wins: /v1/payments/sepa-credit-transfers before /v1/payments/{product}/…
      .sort((a, b) => b.literals - a.literals);
  }

  /** Observes every request of the server, before the app (and its body parser) sees it. */
  observe(server: Server): void {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      const end = response.end.bind(response);
      response.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
        return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
      }) as ServerResponse['end'];
      response.on('finish', () => this.check(request.method!.toLowerCase(), request.url!, response, Buffer.concat(chunks).toString()));
    });
  }

  private check(method: string, url: string, response: ServerResponse, body: string): void {
    let path: string;
    try {
      // As Express routes (not strict): one trailing slash names the same path, two do not.
      path = decodeURI(url.split('?')[0]).replace(/(.)\/$/, '$1');
    } catch {
      path = url.split('?')[0];
    }
    const template = this.paths.find(({ pattern }) => pattern.test(path))?.template;
    const operation =
      template &&
      (this.document.paths[template] as Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>)[
        method
      ];
    if (!operation) return;
    this.checked++;
    const status = String(response.statusCode);
    const documented = operation.responses[status];
    const where = `${method.toUpperCase()} ${url} -> ${status}`;
    if (!documented) {
      this.failures.push(`${where}: status not documented for ${method.toUpperCase()} ${template}`);
      return;
    }
    if (!documented.content) {
      if (body !== '') this.failures.push(`${where}: documented without a body, answered ${body.slice(0, 200)}`);
      return;
    }
    // The media type answered must be one the operation documents; XML must be well-formed, JSON must match its schema.
    const mediaType = String(response.getHeader('content-type') ?? '')
      .split(';')[0]
      .trim();
    if (!(mediaType in documented.content)) {
      this.failures.push(`${where}: answered ${mediaType}, documented ${Object.keys(documented.content).join(', ')}`);
      return;
    }
    if (mediaType !== 'application/json') {
      const wellFormed = mediaType !== 'application/xml' || XMLValidator.validate(body) === true;
      if (!wellFormed) this.failures.push(`${where}: not well-formed XML: ${body.slice(0, 200)}`);
      return;
    }
    const key = `${this.id}#/${pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema')}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: key });
      validators.set(key, validate);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      this.failures.push(`${where}: not JSON: ${body.slice(0, 200)}`);
      return;
    }
    if (!validate(parsed)) {
      this.failures.push(`${where}: ${ajv.errorsText(validate.errors)} in ${body.slice(0, 300)}`);
    }
  }
}
