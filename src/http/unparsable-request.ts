import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { AnswerStyle } from '../common/answer-style';
import { renderError } from './berlin-group-exception.filter';
import { refusal } from '../common/error-catalogue';

/**
 * Node answers a request it cannot even parse (a broken request line or header, headers over
 * its 16 KiB limit) itself, with a bare 400 or 431. This answers the Berlin Group body instead.
 */
export function answerUnparsableRequests(server: Server, profile: AnswerStyle): void {
  // Node's documented `requireHostHeader` option, read per request: Node refuses an HTTP/1.1
  // request without Host with a bare 400 of its own; refuseHostless does it instead.
  Object.assign(server, { requireHostHeader: false });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A client that went away, or took too long to send its request, gets no answer.
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.destroy();
      return;
    }
    const refused =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? refusal('headersTooLarge', 'the request headers are larger than 16 KiB')
        : refusal('malformedRequest', `malformed request: ${error.message}`);
    const body = JSON.stringify(renderError(refused, profile));
    socket.end(
      `HTTP/1.1 ${refused.status()} ${STATUS_CODES[refused.status()]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2); a request without one gets the Berlin Group body. */
export function refuseHostless(request: Request, _response: Response, next: NextFunction): void {
  if (request.httpVersion === '1.1' && request.headers.host === undefined) {
    next(refusal('malformedRequest', 'malformed request: an HTTP/1.1 request needs a Host header'));
    return;
  }
  next();
}

/**
 * No path, parameter or field of the interface holds a NUL character, and PostgreSQL refuses one
 * in any text it is asked to compare or store: a request carrying one (as %00 in the URL, or
 * \u0000 in a body) is malformed, on either engine, before any lookup sees it.
 */
export function refuseNul(request: Request, _response: Response, next: NextFunction): void {
  if (request.originalUrl.includes('%00') || holdsNul(request.body)) {
    next(refusal('malformedRequest', 'malformed request: it holds a NUL character, which no path, parameter or field may hold'));
    return;
  }
  next();
}

/** Whether a parsed body holds a NUL in any key or string (refuseDeepJson bounds its depth). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key.includes('\0') || holdsNul(inner));
}
