import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { isURL } from 'class-validator';
import type { Request } from 'express';
import { FormatError } from '../common/error-catalogue';

/** The TPP-Redirect-URI header, when sent: an absolute http(s) address the account holder returns to. */
export const TppRedirectUri = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<Request>().header('tpp-redirect-uri');
  if (value === undefined) return undefined;
  if (!isURL(value, { require_protocol: true, require_tld: false, protocols: ['http', 'https'] })) {
    throw new FormatError('TPP-Redirect-URI', 'TPP-Redirect-URI must be an absolute http or https URL');
  }
  return value;
});
