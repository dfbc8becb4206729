import { ArgumentMetadata } from '@nestjs/common';
import { AccountQueryDto, TransactionsQueryDto } from '../account-information/dto/account-query.dto';
import { IsOptional, IsString, Matches } from 'class-validator';
import { detail, DomainError } from '../common/error-catalogue';
import { OfferedBy, offeredFields } from '../core/offered-by';
import { createValidationPipe } from './validation.pipe';

const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype });

describe('the validation pipe on a whole query', () => {
  it('answers a query that passed with the same DTO, frozen, without its unknown fields', async () => {
    const pipe = createValidationPipe();
    const first = await pipe.transform({ withBalance: 'true', extra: 'x' }, query(AccountQueryDto));
    expect(first).toBeInstanceOf(AccountQueryDto);
    expect(first).toEqual({ withBalance: 'true' });
    expect(Object.isFrozen(first)).toBe(true);
    await expect(pipe.transform({ withBalance: 'true', extra: 'x' }, query(AccountQueryDto))).resolves.toBe(first);
  });

  it('refuses a bad query every time it comes', async () => {
    const pipe = createValidationPipe();
    for (let time = 0; time < 2; time++) {
      await expect(pipe.transform({ withBalance: 'yes' }, query(AccountQueryDto))).rejects.toThrow(DomainError);
    }
  });

  it('keeps what passed for one DTO from answering for another', async () => {
    const pipe = createValidationPipe();
    await expect(pipe.transform({}, query(AccountQueryDto))).resolves.toEqual({});
    // bookingStatus is required on transactions.
    await expect(pipe.transform({}, query(TransactionsQueryDto))).rejects.toThrow(DomainError);
  });
});

describe("a service's field (OfferedBy)", () => {
  class Probe {
    @IsString()
    name: string;

    @OfferedBy('probes', (where) => [IsOptional(where), Matches(/^x+$/, { message: '$property must be x', ...where })])
    code?: string;
  }
  const body: ArgumentMetadata = { type: 'body', metatype: Probe };

  it('is stripped unread where the bank does not offer its service', async () => {
    await expect(createValidationPipe(['other']).transform({ name: 'n', code: 'y' }, body)).resolves.toEqual({ name: 'n' });
  });

  it('is read by its rules where it does', async () => {
    const pipe = createValidationPipe(['probes']);
    await expect(pipe.transform({ name: 'n', code: 'xx' }, body)).resolves.toEqual({ name: 'n', code: 'xx' });
    await expect(pipe.transform({ name: 'n', code: 'y' }, body)).rejects.toMatchObject({
      details: [detail('formatError', 'code must be x', 'code')],
    });
  });

  it('is recorded for the served document with its service', () => {
    expect(offeredFields()).toContainEqual([Probe, 'code', 'probes']);
  });
});

describe('the rules of a body, looked up once a class', () => {
  const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });

  it('validates a class again by the same rules, and by a rule declared after they were looked up', async () => {
    class Named {
      @IsString()
      name: string;
    }
    const pipe = createValidationPipe();
    for (let time = 0; time < 2; time++) {
      await expect(pipe.transform({ name: 'm', extra: 'x' }, body(Named))).resolves.toEqual({ name: 'm' });
      await expect(pipe.transform({ name: 1 }, body(Named))).rejects.toMatchObject({
        details: [detail('formatError', 'name must be a string', 'name')],
      });
    }
    // A rule declared now, as a class loaded later would: the rules looked up before are forgotten.
    Matches(/^n+$/, { message: '$property must be n' })(Named.prototype, 'name');
    await expect(pipe.transform({ name: 'm' }, body(Named))).rejects.toMatchObject({
      details: [detail('formatError', 'name must be n', 'name')],
    });
    await expect(pipe.transform({ name: 'nn' }, body(Named))).resolves.toEqual({ name: 'nn' });
  });
});
