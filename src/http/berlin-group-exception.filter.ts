import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AnswerStyle } from '../common/answer-style';
import { BankProfile } from '../profile/bank-profile';
import { settleOwedWrite } from '../database/store';
import { asUnavailable } from '../database/write-strategy';
import { inBerlinGroupShape, MessageList, messageListOf } from './berlin-group-answers';
import { DomainError, OAuthError, refusal } from '../common/error-catalogue';

/** The one place that turns any failure into the Berlin Group error body: no framework error page ever shows. */
@Catch()
export class BerlinGroupExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');
  private readonly profile: AnswerStyle;

  /** `lists`: the operations whose error list Berlin Group names otherwise (MessageList), as the services declare them. */
  constructor(
    profile: BankProfile,
    private readonly lists: readonly MessageList[] = [],
  ) {
    this.profile = profile.answers;
  }

  /** A refusal too settles what its request owes first (owed-writes.ts); where that fails, its failure is the answer. */
  catch(exception: unknown, host: ArgumentsHost): void {
    void settleOwedWrite().then(
      () => this.answer(exception, host),
      (failure: unknown) => this.answer(failure, host),
    );
  }

  private answer(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    // The path as requested: a middleware mounted on a path sees request.path without it.
    const path = request.originalUrl.split('?')[0];
    const found = this.toDomainError(exception, request.method, path);
    // OAuth clients read `error` from whatever the token endpoint (RFC 6749 §5.2) and client registration (RFC 7591 §3.2.2) answer.
    const error = speaksOAuth(request.method, path) && !(found instanceof OAuthError) ? OAuthError.from(found) : found;
    if (error.status() >= 500) {
      // The path only: a query string may carry what must not reach a log (docs/operations.md, "Logs"). A 503 is no bug: a warning.
      const cause = exception instanceof Error ? exception.stack : exception;
      if (error.status() === 503) this.logger.warn(`${request.method} ${path}: ${String(cause)}`);
      else this.logger.error(`${request.method} ${path}`, cause);
    }
    const response = http.getResponse<Response>();
    // The request's own log line (pino-http) carries the cause of a 5xx, its stack and the driver's code: a 500 in a
    // run whose other logs are off still says what it was (docs/operations.md, "Logs").
    if (error.status() >= 500) response.err = exception instanceof Error ? exception : new Error(String(exception));
    // For the request log (request-log.ts): the code and message number the client reads.
    response.locals.errorCode = `${error.toBody(this.profile).tppMessages[0].code} ${error.details[0].messageId}`;
    response
      .status(error.status(this.profile))
      .set(error.headers)
      .json(renderError(error, this.profile, messageListOf(this.lists, path, this.profile === 'berlin-group')));
  }

  private toDomainError(exception: unknown, method: string, path: string): DomainError {
    if (exception instanceof DomainError) return exception;
    // Nest's router throws NotFoundException for unmatched routes; our code never does.
    if (exception instanceof NotFoundException) {
      return refusal('routeUnknown', `no route ${method} ${path}`);
    }
    // body-parser's own error for a body over the limit set in app.factory.ts.
    if (isHttpError(exception) && exception.type === 'entity.too.large') {
      return refusal('bodyTooLarge', 'the request body is larger than 100 KiB');
    }
    // Nest maps body-parser's JSON SyntaxError and Express's URIError to BadRequestException;
    // body-parser's other refusals (unsupported charset or encoding) arrive as client http-errors.
    if (exception instanceof BadRequestException || (isHttpError(exception) && exception.status < 500)) {
      return refusal('malformedRequest', `malformed request: ${exception.message}`);
    }
    // A read that met a storage fault (a write's is already a DomainError): 503, worth a retry.
    const unavailable = asUnavailable(exception);
    return unavailable instanceof DomainError ? unavailable : refusal('internalError', 'unexpected error');
  }
}

const speaksOAuth = (method: string, path: string): boolean =>
  (method === 'POST' && /^\/oauth2\/token\/?$/.test(path)) || /^\/register(\/[^/]*)?\/?$/.test(path);

function isHttpError(value: unknown): value is Error & { status: number; type?: string } {
  return value instanceof Error && typeof (value as { status?: unknown }).status === 'number';
}

/** The error body in the profile in force: Berlin Group's carries no nulls (`path`, `_links`), and its list has the operation's name (`list`). */
export function renderError(error: DomainError, profile: AnswerStyle, list = 'tppMessages'): object {
  if (profile === 'bank') return error.toBody(profile);
  const shaped = inBerlinGroupShape(error.toBody(profile));
  if (list === 'tppMessages') return shaped;
  const { tppMessages, ...rest } = shaped;
  return { [list]: tppMessages, ...rest };
}
