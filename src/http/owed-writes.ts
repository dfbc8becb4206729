import { CallHandler, Injectable, NestInterceptor } from '@nestjs/common';
import { concatMap, Observable } from 'rxjs';
import { Store } from '../database/store';

/**
 * Before an operation's answer goes out, the write its request owes and has not made (Store.owe:
 * a signed request's spend, when the handler wrote nothing) is made; where it fails, that failure
 * is the answer. A refusal's answer settles it in the exception filter.
 */
@Injectable()
export class SettleOwedWrites implements NestInterceptor {
  constructor(private readonly store: Store) {}

  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(concatMap(async (answer: unknown) => (await this.store.settle(), answer)));
  }
}
