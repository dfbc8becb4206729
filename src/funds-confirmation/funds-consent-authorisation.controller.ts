import { ApiTags } from '@nestjs/swagger';
import { Xs2aController } from '../http/controller.decorator';
import { ConsentAuthorisationRoutes } from '../authorisation/consent-authorisation.controller';

/** Served where the profile offers the confirmation of funds with its consents (FundsConfirmationModule). */
@ApiTags('Confirmation of funds')
@Xs2aController('consents/confirmation-of-funds', 'PSP_IC', 'v2')
export class FundsConsentAuthorisationController extends ConsentAuthorisationRoutes {
  protected readonly purpose = 'piis';
}
