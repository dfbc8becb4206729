import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { Observable, tap } from 'rxjs';

interface Linked {
  _links?: { self?: { href: string }; scaStatus?: { href: string } };
}

/**
 * The headers Berlin Group sends with a resource it created (an initiation, an authorisation
 * start): `Location` of the new resource (its `self` link, or an authorisation's `scaStatus`), and
 * `ASPSP-SCA-Approach`, which "must be contained if the SCA approach is already fixed": the
 * sandbox offers the redirect approach only (docs/sca-flows.md).
 */
@Injectable()
class CreatedResourceHeaders implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler<Linked>): Observable<Linked> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      tap(({ _links }) => {
        response.setHeader('ASPSP-SCA-Approach', 'REDIRECT');
        const location = _links?.self?.href ?? _links?.scaStatus?.href;
        if (location) response.setHeader('Location', location);
      }),
    );
  }
}

export const CreatedResource = (): MethodDecorator => UseInterceptors(CreatedResourceHeaders);
