import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { Observable, tap } from 'rxjs';
import { BankProfile } from '../profile/bank-profile';
import { CreatesInBerlinGroup } from './berlin-group-profile';

interface Linked {
  _links?: { self?: { href: string }; scaStatus?: { href: string } };
}

/**
 * The headers Berlin Group sends with a resource it created (an initiation, an authorisation
 * start): `Location` of the new resource (its `self` link, or an authorisation's `scaStatus`), and
 * `ASPSP-SCA-Approach`, which "must be contained if the SCA approach is already fixed": the
 * bank's redirect, or the approach the request asked for (docs/sca-approaches.md). With `answers: berlin-group` the
 * status is Berlin Group's 201 also where the bank answers 200 (docs/profiles.md).
 */
@Injectable()
class CreatedResourceHeaders implements NestInterceptor {
  private readonly berlinGroup: boolean;

  constructor(profile: BankProfile) {
    this.berlinGroup = profile.answers === 'berlin-group';
  }

  intercept(context: ExecutionContext, next: CallHandler<Linked>): Observable<Linked> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      tap(({ _links }) => {
        if (this.berlinGroup) response.status(201);
        // The bank's redirect, unless the request asked for another approach (announceApproach).
        if (!response.hasHeader('ASPSP-SCA-Approach')) response.setHeader('ASPSP-SCA-Approach', 'REDIRECT');
        const location = _links?.self?.href ?? _links?.scaStatus?.href;
        if (location) response.setHeader('Location', location);
      }),
    );
  }
}

export const CreatedResource = (): MethodDecorator => applyDecorators(UseInterceptors(CreatedResourceHeaders), CreatesInBerlinGroup());
