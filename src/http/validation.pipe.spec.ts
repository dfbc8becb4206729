import { ArgumentMetadata } from '@nestjs/common';
import { AccountQueryDto, TransactionsQueryDto } from '../account-information/dto/account-query.dto';
import { DomainError } from '../common/error-catalogue';
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
