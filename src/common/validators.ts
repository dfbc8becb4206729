import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsObject,
  IsOptional,
  Matches,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
  buildMessage,
} from 'class-validator';
import { DATE_PATTERN, isDateOnly } from './dates';
import { isValidIban } from './iban';

/** Property decorators for the Berlin Group field formats; the patterns are the yaml's. */

export function IsIban(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIban',
      validator: {
        validate: isValidIban,
        defaultMessage: buildMessage((each) => `${each}$property must be an IBAN with a valid checksum`, options),
      },
    },
    options,
  );
}

/** A date, checked and declared in the served document with its range (DATE_PATTERN). */
export function IsDateOnly(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name: 'isDateOnly',
        validator: {
          validate: isDateOnly,
          defaultMessage: buildMessage(
            (each) => `${each}$property must be a real date written YYYY-MM-DD, from 1000-01-01 to 9999-12-31`,
            options,
          ),
        },
      },
      options,
    ),
    ApiProperty({ format: 'date', pattern: DATE_PATTERN }),
  );
}

export const IsBic = (): PropertyDecorator =>
  Matches(/^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/, { message: '$property must be a BIC of 8 or 11 characters' });

export const IsCurrency = (): PropertyDecorator =>
  Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 code of three capital letters' });

/** A positive amount: up to 14 integer digits and 3 decimals, never zero, never signed. */
export const IsAmount = (): PropertyDecorator =>
  Matches(/^(?!0+(\.0+)?$)[0-9]{1,14}(\.[0-9]{1,3})?$/, {
    message: '$property must be a positive decimal string such as "123.45"',
  });

export const IsCountryCode = (): PropertyDecorator =>
  Matches(/^[A-Z]{2}$/, { message: '$property must be an ISO 3166 code of two capital letters' });

/** ISO 8601 date-time that states its UTC offset, e.g. 2026-03-20T10:00:00+01:00. */
export const IsDateTimeWithOffset = (): PropertyDecorator =>
  Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: '$property must be a date-time with a UTC offset, such as 2026-03-20T10:00:00+01:00',
  });

/** A balance or a booked amount: negative allowed, up to 14 integer digits and 3 decimals. */
export const IsSignedAmount = (): PropertyDecorator =>
  Matches(/^-?[0-9]{1,14}(\.[0-9]{1,3})?$/, { message: '$property must be a decimal string such as "-42.50"' });

/**
 * A nested object of the given class. ValidateNested alone lets an array through (it validates
 * the array's items instead, and an empty one has none), so the value must also be an object.
 */
export const NestedObject = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(ValidateNested(), Type(type), IsObject({ message: '$property must be an object' }));

/** A masked PAN as the bank shows a card's number (docs/card-accounts.md): the first six and the last four digits, x between. */
export const MASKED_PAN = /^[0-9]{6}x{2,19}[0-9]{4}$/;

/** A list of objects of the given class: an item that is itself an array is refused the same way. */
export const NestedObjects = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(
    ValidateNested({ each: true }),
    Type(type),
    IsObject({ each: true, message: 'each item of $property must be an object' }),
  );

/** An optional list of up to 1000 objects of the given class; applyDecorators registers in order, so the array check (reported first) goes last. */
export const List = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(IsOptional(), ArrayMaxSize(1000), NestedObjects(type), IsArray());
