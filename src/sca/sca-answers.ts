import type { Authorisation } from '../authorisation/authorisation.entity';
import { nextStepLinks, psuMessageOf, ScaStepResponse } from '../authorisation/authorisation-response.dto';
import type { ScaMethod } from '../profile/bank-profile';
import { CHALLENGE_DATA } from './psu-personas';

/** Berlin Group's answer to a step of embedded or decoupled SCA (docs/sca-approaches.md): what the status asks for next; `methods` are its PSU's. */
export function toScaStepResponse(authorisation: Authorisation, path: string, methods: ScaMethod[]): ScaStepResponse {
  const chosen = methods.find(({ authenticationMethodId }) => authenticationMethodId === authorisation.scaMethodId);
  return {
    scaStatus: authorisation.status,
    ...(authorisation.status === 'psuAuthenticated' ? { scaMethods: methods } : {}),
    ...(authorisation.status === 'scaMethodSelected' && chosen ? { chosenScaMethod: chosen, challengeData: CHALLENGE_DATA } : {}),
    ...psuMessageOf(authorisation),
    _links: nextStepLinks(authorisation, path),
  };
}
