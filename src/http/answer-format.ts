import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { refusal } from '../common/error-catalogue';
import { TppErrorResponse } from './error-response.dto';
import { Checks } from './request-checks';

/** What most operations answer: JSON, whatever else a profile offers elsewhere. */
export const JSON_ONLY = ['application/json'] as const;

/**
 * The media type of the answer: the one of `offered` the Accept header prefers (Express's
 * negotiation: quality values, wildcards; no Accept takes the first offered). 406
 * REQUESTED_FORMATS_INVALID where it takes none of them (docs/formats.md, "Accept").
 */
export function answerFormat<Type extends string>(request: Request, offered: readonly Type[]): Type {
  const chosen = request.accepts(offered as unknown as string[]);
  if (chosen === false)
    throw refusal(
      'requestedFormatsInvalid',
      `Accept ${request.header('accept')} names no media type this operation answers in: ${offered.join(', ')}`,
      'Accept',
    );
  return chosen as Type;
}

/** A route that answers more than JSON: it negotiates Accept itself (answerFormat), and says when it answers 406. */
export const AnswersBeyondJson = (when: string): MethodDecorator =>
  applyDecorators(
    Checks({ ownFormats: true }),
    ApiResponse({ status: 406, type: TppErrorResponse, description: `REQUESTED_FORMATS_INVALID: ${when}` }),
  );
