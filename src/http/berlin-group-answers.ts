import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { ApiExtension, OpenAPIObject } from '@nestjs/swagger';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';
import type { Environment } from '../config/environment';

/**
 * PROFILE=berlin-group: the answers the Berlin Group 1.3.11 yaml describes where the bank departs
 * from it (docs/profiles.md lists every difference). The rules of the sandbox are the same in
 * both profiles; only the shape of an answer differs, and it is shaped here and in the document.
 */

/**
 * A body as Berlin Group answers it: every null property left out, at any depth (the yaml declares
 * no field nullable), and every empty value (Berlin Group's answers, and the EPC's payee
 * verification rulebook 1.1, send none): an empty string anywhere; the lists the seed bank always
 * sends, empty when there is nothing in them (EMPTY_LEFT_OUT), and a consent's access lists it
 * did not ask for. A list that is the answer itself (an account list without accounts) stays. A
 * standing order's monthsOfExecution only with frequency MonthlyVariable (the yaml: "contained if
 * and only if the frequency equals MonthlyVariable", at most 11; the bank lists all twelve months
 * of a monthly order); a bulk's batchBookingPreferred as the yaml's boolean, where the bank echoes
 * the string its clients send.
 */
export function inBerlinGroupShape<T>(value: T, parent?: string): T {
  if (Array.isArray(value)) return value.map((child) => inBerlinGroupShape(child)) as T;
  if (value === null || typeof value !== 'object') return value;
  const leftOut = (key: string, child: unknown) =>
    child === null ||
    child === '' ||
    (Array.isArray(child) && child.length === 0 && (EMPTY_LEFT_OUT.has(key) || parent === 'access')) ||
    (key === 'monthsOfExecution' && (value as { frequency?: unknown }).frequency !== 'MonthlyVariable');
  const kept = Object.entries(value).filter(([key, child]) => !leftOut(key, child));
  return Object.fromEntries(
    kept.map(([key, child]) => [
      key,
      key === 'batchBookingPreferred' && typeof child === 'string' ? child === 'true' : inBerlinGroupShape(child, key),
    ]),
  ) as T;
}

/** Lists the seed bank sends even when empty, which Berlin Group leaves out then (docs/profiles.md, "answers"). */
const EMPTY_LEFT_OUT = new Set(['scaMethods', 'tppMessages']);

const WRAP = 'berlin-group:wrap';
const WRAP_EXTENSION = 'x-berlin-group-wrap';
const CREATES = 'berlin-group:creates';
const CREATES_EXTENSION = 'x-berlin-group-creates';

/** Berlin Group answers this operation inside `{ <key>: … }` where the bank answers the bare object (account details). */
export const WrappedInBerlinGroup = (key: string): MethodDecorator =>
  applyDecorators(SetMetadata(WRAP, key), ApiExtension(WRAP_EXTENSION, key));

/** The operation creates a resource (its headers: created-resource.ts): 201 in Berlin Group, where the bank answers 200. */
export const CreatesInBerlinGroup = (): MethodDecorator =>
  applyDecorators(SetMetadata(CREATES, true), ApiExtension(CREATES_EXTENSION, true));

/**
 * Registered for the whole app in PROFILE=berlin-group only (app.module.ts). A creation's
 * `Location` is the absolute URL the yaml types it as (`format: url`), where the bank sends the path.
 */
@Injectable()
export class BerlinGroupAnswers implements NestInterceptor {
  private readonly baseUrl: string;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<Environment, true>,
  ) {
    this.baseUrl = config.get('PUBLIC_BASE_URL', { infer: true });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const key = this.reflector.get<string | undefined>(WRAP, context.getHandler());
    const creates = this.reflector.get<boolean | undefined>(CREATES, context.getHandler());
    const response = context.switchToHttp().getResponse<Response>();
    if (creates) response.status(201);
    return next.handle().pipe(
      map((body: unknown) => {
        const location = creates && response.getHeader('Location');
        if (typeof location === 'string') response.setHeader('Location', `${this.baseUrl}${location}`);
        return inBerlinGroupShape(key && body !== undefined ? { [key]: body } : body);
      }),
    );
  }
}

/**
 * Where Berlin Group names an operation's error list otherwise than `tppMessages` (the 1.3.16
 * yaml's Verification of Party operations: `apiClientMessages`): the paths it applies to, tested
 * against the request's path and the document's path templates alike. Berlin Group's answers only.
 */
export interface MessageList {
  name: 'apiClientMessages';
  paths: RegExp;
}

/** The error list's name for a path, in the profile in force. */
export const messageListOf = (lists: readonly MessageList[], path: string, berlinGroup: boolean): string =>
  (berlinGroup && lists.find(({ paths }) => paths.test(path))?.name) || 'tppMessages';

type Schema = { nullable?: boolean; required?: string[]; properties?: Record<string, Schema>; items?: Schema; [key: string]: unknown };
type Operation = { responses: Record<string, { content?: Record<string, { schema: Schema }> }>; [key: string]: unknown };

/**
 * The served document in either profile. The operations' markers are taken out; in berlin-group
 * a created resource answers 201, a wrapped one `{ key: … }`, and no property is null: a nullable
 * one is left out instead, so it is no longer required and has no null example.
 */
export function documentFor(document: OpenAPIObject, berlinGroup: boolean, lists: readonly MessageList[] = []): OpenAPIObject {
  for (const [path, operations] of Object.entries(document.paths)) {
    const list = messageListOf(lists, path, berlinGroup);
    if (list !== 'tppMessages') renameMessageList(document, operations as Record<string, Operation>, list);
    for (const operation of Object.values(operations) as Operation[]) {
      if (typeof operation !== 'object' || !operation?.responses) continue;
      const wrap = operation[WRAP_EXTENSION] as string | undefined;
      const creates = operation[CREATES_EXTENSION] === true;
      delete operation[WRAP_EXTENSION];
      delete operation[CREATES_EXTENSION];
      if (!berlinGroup) continue;
      const ok = operation.responses['200'];
      if (ok && wrap) {
        for (const content of Object.values(ok.content ?? {}))
          content.schema = { type: 'object', required: [wrap], properties: { [wrap]: content.schema } };
      }
      if (ok && creates) {
        operation.responses['201'] = ok;
        delete operation.responses['200'];
      }
    }
  }
  if (berlinGroup) {
    visitObjects(document, leaveOutNulls);
    leaveOutEmptyLists(document);
  }
  return document;
}

/** inBerlinGroupShape's empty lists, in the answers' schemas: not required, and at least one item when sent. */
function leaveOutEmptyLists(document: OpenAPIObject): void {
  const schemas = document.components!.schemas! as Record<string, Schema>;
  const resolved = (schema: Schema | undefined) => (typeof schema?.$ref === 'string' ? schemas[schema.$ref.split('/').pop()!] : schema);
  // The schemas the answers use, at any depth: a request's lists are the request's rules (consent-access-document.ts).
  const responses = Object.values(document.paths).flatMap((operations) =>
    (Object.values(operations) as Operation[]).flatMap((operation) => (operation?.responses ? [operation.responses] : [])),
  );
  const answers = [...schemasUsed(document, responses)].flatMap((name) => schemas[name] ?? []);
  const leaveOut = (schema: Schema, names: string[]) => {
    for (const name of names) {
      const property = schema.properties?.[name];
      if (property?.type !== 'array') continue;
      property.minItems = 1;
      if (Array.isArray(property.example) && property.example.length === 0) delete property.example;
      schema.required = schema.required?.filter((required) => required !== name);
      if (schema.required?.length === 0) delete schema.required;
    }
  };
  for (const schema of answers) {
    visitObjects(schema, (object) => {
      if (!object.properties) return;
      leaveOut(object, [...EMPTY_LEFT_OUT]);
      const access = resolved(object.properties.access);
      if (access?.properties) leaveOut(access, Object.keys(access.properties));
    });
  }
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Operation[])
      if (operation?.responses) visitObjects(operation.responses, (object) => object.properties && leaveOut(object, [...EMPTY_LEFT_OUT]));
  }
}

const ERROR_BODY = '#/components/schemas/TppErrorResponse';

/** The operations' error answers name their list `list`: a copy of the error body under that name, which they refer to instead. */
function renameMessageList(document: OpenAPIObject, operations: Record<string, Operation>, list: string): void {
  const schemas = document.components!.schemas! as Record<string, Schema>;
  const name = `${list[0].toUpperCase()}${list.slice(1)}Error`;
  if (!schemas[name]) {
    const { tppMessages, ...rest } = schemas.TppErrorResponse.properties!;
    schemas[name] = { ...schemas.TppErrorResponse, required: [list], properties: { [list]: tppMessages, ...rest } };
  }
  // New answer objects: the document shares one between operations.
  for (const operation of Object.values(operations)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const media = response.content?.['application/json'];
      if (media?.schema.$ref !== ERROR_BODY) continue;
      operation.responses[status] = {
        ...response,
        content: { 'application/json': { ...media, schema: { $ref: `#/components/schemas/${name}` } } },
      };
    }
  }
}

/** Any value fits a schema that names no type (the payment object's echoed fields): null too. */
const TYPED = ['type', '$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'properties', 'items'];
const admitsNull = (property: Schema | undefined) =>
  property !== undefined && (property.nullable === true || !TYPED.some((key) => key in property));

function leaveOutNulls(schema: Schema): void {
  if (!schema.properties) return;
  const nullable = Object.entries(schema.properties)
    .filter(([, property]) => admitsNull(property))
    .map(([name]) => name);
  if (schema.required) schema.required = schema.required.filter((name) => !nullable.includes(name));
  // OpenAPI 3.0 wants at least one name in `required`, and an example the schema admits.
  if (schema.required?.length === 0) delete schema.required;
  for (const property of Object.values(schema.properties)) {
    if (!property) continue;
    delete property.nullable;
    if (property.example === null) delete property.example;
  }
}

/** The names of the component schemas `roots` use, directly or through other schemas. */
export function schemasUsed(document: OpenAPIObject, roots: unknown[]): Set<string> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const used = new Set<string>();
  const reach = (node: unknown) =>
    visitObjects(node, ({ $ref }) => {
      const name = typeof $ref === 'string' ? $ref.split('#/components/schemas/')[1] : undefined;
      if (name === undefined || used.has(name)) return;
      used.add(name);
      reach(schemas[name]);
    });
  roots.forEach(reach);
  return used;
}

/** Calls `visit` on every object of the document, at any depth. */
export function visitObjects(node: unknown, visit: (object: Schema) => void): void {
  if (Array.isArray(node)) return node.forEach((child) => visitObjects(child, visit));
  if (node === null || typeof node !== 'object') return;
  visit(node as Schema);
  for (const child of Object.values(node)) visitObjects(child, visit);
}
