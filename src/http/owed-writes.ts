import { ClassedExpressAdapter } from './request-classes';
import { settleOwedWrite } from '../database/store';

/**
 * Express as Nest drives it, but an operation's answer first waits for the write its request owes
 * and has not made (Store.oweInsertUnique: a signed request's spend, where the handler wrote nothing); where
 * that write fails, Nest hands the failure to the exception filter, which answers it instead. A
 * refusal's answer settles it in the filter. Here rather than in an interceptor: a route with one
 * pays Nest's rxjs chain and its async-context bindings on every request, which took the account
 * list's GET from about 1,090 to 1,820 µs of CPU (docs/benchmark.md, "Signed requests").
 */
export class SettlingExpressAdapter extends ClassedExpressAdapter {
  override async reply(response: unknown, body: unknown, statusCode?: number): Promise<unknown> {
    await settleOwedWrite();
    return super.reply(response, body, statusCode) as unknown;
  }
}
