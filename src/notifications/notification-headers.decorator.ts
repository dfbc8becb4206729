import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { FormatError } from '../common/error-catalogue';
import { storedHeaderSchema, uriHeader } from '../http/sca-headers.decorator';
import { DEFAULT_CONTENT, formatContent, NotificationContent, parseContent } from './notification-content';

/** What a consent or payment initiation asks to be notified of (docs/notifications.md). */
export interface NotificationRequest {
  uri: string;
  content: NotificationContent[];
}

/** TPP-Notification-URI and TPP-Notification-Content-Preferred; null when no URI came (a preference alone means nothing). */
export const NotificationHeaders = createParamDecorator((_: unknown, context: ExecutionContext): NotificationRequest | null => {
  const request = context.switchToHttp().getRequest<Request>();
  const uri = uriHeader(request, 'TPP-Notification-URI');
  if (uri === null) return null;
  const preferred = request.header('TPP-Notification-Content-Preferred');
  const content = preferred === undefined ? DEFAULT_CONTENT : parseContent(preferred);
  if (!content)
    throw new FormatError(
      'TPP-Notification-Content-Preferred',
      'TPP-Notification-Content-Preferred must be "status=" followed by SCA, PROCESS or LAST, separated by commas, each at most once',
    );
  return { uri, content };
});

/** Whether the sandbox will notify, and of what: only on an answer to a request that asked. Nothing is notified of a resource that was not stored (the bank's fixture consent). */
export function announceNotifications(response: Response, request: NotificationRequest | null, subscribed: boolean): void {
  if (!request) return;
  response.setHeader('ASPSP-Notification-Support', String(subscribed));
  if (subscribed) response.setHeader('ASPSP-Notification-Content', formatContent(request.content));
}

/** The response headers, as the OpenAPI document lists them on a creation's answer. */
export const NOTIFICATION_HEADERS = {
  'ASPSP-Notification-Support': {
    description: 'on an answer to a request with TPP-Notification-URI: true when the sandbox will notify it',
    schema: { type: 'boolean' },
  },
  'ASPSP-Notification-Content': {
    description: 'what it will notify: status=SCA, PROCESS, LAST (as preferred; PROCESS when no preference came)',
    schema: { type: 'string' },
  },
};

export const ApiNotificationHeaders = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({
      name: 'TPP-Notification-URI',
      required: false,
      schema: storedHeaderSchema('TPP-Notification-URI', 'uri'),
      description: 'where the sandbox POSTs status notifications of the created resource (docs/notifications.md)',
    }),
    ApiHeader({
      name: 'TPP-Notification-Content-Preferred',
      required: false,
      description: 'status=SCA, PROCESS, LAST: which changes to notify (default PROCESS)',
      example: 'status=SCA, PROCESS',
    }),
  );
