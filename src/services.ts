import type { SandboxService } from './core/sandbox-service';
import { cardAccountsService } from './card-accounts/card-accounts.feature';
import { fundsConfirmationService } from './funds-confirmation/funds-confirmation.feature';
import { permissionDashboardService } from './permission-dashboard/permission-dashboard.feature';
import { signingBasketsService } from './signing-baskets/signing-baskets.feature';
import { trustedBeneficiariesService } from './trusted-beneficiaries/trusted-beneficiaries.feature';

/**
 * The services beyond the seed bank's (docs/development.md, "A service plugs in"): Berlin Group's,
 * and the permission dashboard the PSR asks for:
 * each is served where the profile offers it; one not listed here does not exist. Their order is
 * that of their routes in the served document and of their fixtures in the seed.
 */
export const SERVICES: readonly SandboxService[] = [
  fundsConfirmationService,
  trustedBeneficiariesService,
  cardAccountsService,
  signingBasketsService,
  permissionDashboardService,
];
