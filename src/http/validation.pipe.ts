import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, getMetadataStorage, IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { AnswerMemo } from '../common/answer-memo';
import { DomainError, ErrorDetail, detail } from '../common/error-catalogue';
import type { OfferedGroup } from '../core/offered-by';

/**
 * The global pipe: DTO validation failures become one FORMAT_ERROR message per field, with `path`
 * naming it (`access.balances[0].iban`). Unknown fields are stripped, never a reason to reject.
 * A field of a service only some banks offer is validated in its group (OfferedBy), and
 * only the profile's `groups` are read: elsewhere it is stripped unread, as an unknown field is.
 */
export function createValidationPipe(groups: string[] = []): ValidationPipe {
  rememberRuleLookups();
  return new QueryRememberingValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    groups,
    // Every field without a group is always checked, whatever groups are in force; with none in
    // force, no field of a group is (class-validator would otherwise check them all).
    always: true,
    strictGroups: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const [first, ...more] = errors.flatMap((error) => toDetails(error, ''));
      return new DomainError(first, ...more);
    },
  });
}

/**
 * A client asks the same query again and again (a suite polling transactions), and validating it
 * took about 20 µs of every read: a query that passed is remembered with its DTO, frozen so that
 * no handler can change what the next request gets. A query that fails is checked every time.
 */
class QueryRememberingValidationPipe extends ValidationPipe {
  private readonly passed = new AnswerMemo<unknown>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const wholeQuery = metadata.type === 'query' && metadata.data === undefined && metadata.metatype;
    if (!wholeQuery) return super.transform(value, metadata);
    const query = JSON.stringify(value);
    return (
      this.passed.recall(wholeQuery, query) ?? this.passed.keep(wholeQuery, query, Object.freeze(await super.transform(value, metadata)))
    );
  }
}

type RuleStorage = ReturnType<typeof getMetadataStorage>;
type Rules = ReturnType<RuleStorage['getTargetValidationMetadatas']>;
const remembering = new WeakSet<RuleStorage>();

/**
 * class-validator looks up an object's rules, on every object it validates, by testing its class
 * against every class that has rules (for inheritance): each DTO a feature adds made every
 * validation slower, about 45 µs of a POST SEPA payment by 2026-11 (docs/benchmark.md). The rules
 * are declared as the classes load, so the lookup's answer for a class and options is kept, and
 * so is its grouping by property (neither is changed by the validation that reads them); a rule
 * declared later forgets them all.
 */
function rememberRuleLookups(): void {
  const storage = getMetadataStorage();
  if (remembering.has(storage)) return;
  remembering.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  let looked = new AnswerMemo<Rules>();
  let grouped = new WeakMap<Rules, ReturnType<RuleStorage['groupByPropertyName']>>();
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const options = `${schema}|${always}|${strictGroups}|${JSON.stringify(groups)}`;
    return looked.recall(target, options) ?? looked.keep(target, options, lookup(target, schema, always, strictGroups, groups));
  };
  storage.groupByPropertyName = (rules) => grouped.get(rules) ?? grouped.set(rules, group(rules)).get(rules)!;
  for (const declare of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const declared = storage[declare].bind(storage) as (metadata: never) => void;
    storage[declare] = (metadata: never) => {
      looked = new AnswerMemo();
      grouped = new WeakMap();
      declared(metadata);
    };
  }
}

function toDetails(error: ValidationError, parentPath: string): ErrorDetail[] {
  const path = /^\d+$/.test(error.property)
    ? `${parentPath}[${error.property}]`
    : parentPath
      ? `${parentPath}.${error.property}`
      : error.property;
  const children = (error.children ?? []).flatMap((child) => toDetails(child, path));
  if (!error.constraints) return children;
  // Decorators register bottom-up, so the last message belongs to the first-written (type) check;
  // nested validation runs in a later phase, and any other failed check says more than it does.
  const { nestedValidation, ...checks } = error.constraints;
  const message = Object.values(checks).at(-1) ?? nestedValidation;
  const description = error.value === undefined ? `${path} is required` : message.replace(error.property, path);
  return [detail('formatError', description, path), ...children];
}

/** The rules of an optional list of `type` objects, at most `maxItems`, as written on a field: for a service's field (OfferedBy). */
export const optionalList =
  (type: new () => object, maxItems: number, description: string) =>
  (where: OfferedGroup): PropertyDecorator[] => [
    ApiPropertyOptional({ type: [type], maxItems, description }),
    IsOptional(where),
    IsArray(where),
    ArrayMaxSize(maxItems, where),
    ValidateNested({ each: true, ...where }),
    IsObject({ each: true, message: 'each item of $property must be an object', ...where }),
    Type(() => type),
  ];
