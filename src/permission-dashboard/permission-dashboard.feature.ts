import type { SandboxService } from '../core/sandbox-service';
import type { ProfileSettings } from '../profile/bank-profile';
import { PermissionsCockpit } from './permissions-cockpit';
import { PermissionDashboardModule } from './permission-dashboard.module';
import type { DashboardSettings } from './permissions.service';

declare module '../profile/bank-profile' {
  interface ProfileSettings {
    permissionDashboard?: boolean | Partial<DashboardSettings>;
  }
}

/** The dashboard's settings: offered unless the profile says false, re-establishment unless it says so. */
const settingsOf = ({ permissionDashboard = true }: ProfileSettings): DashboardSettings => ({
  reestablish: typeof permissionDashboard === 'object' ? (permissionDashboard.reestablish ?? true) : true,
});

/**
 * The account holder's permission dashboard the EU's Payment Services Regulation asks of every bank
 * with a dedicated interface (docs/permission-dashboard.md); offered unless the profile sets
 * permissionDashboard: false.
 */
export const permissionDashboardService: SandboxService = {
  name: 'permissionDashboard',
  profileKeys: {
    permissionDashboard: {
      description:
        "The account holder's permission dashboard (PSR, docs/permission-dashboard.md): /dashboard and /sandbox/psus/{psuId}/permissions. Absent or true: offered, withdrawn consents may be re-established; false: not offered.",
      oneOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            reestablish: {
              description: 'Whether the holder may re-establish a consent they withdrew, while it has not expired (default true).',
              type: 'boolean',
            },
          },
        },
      ],
    },
  },
  offeredBy: (settings) => settings.permissionDashboard !== false,
  module: (profile, environment) =>
    PermissionDashboardModule.forSandbox(settingsOf(profile.settings), environment.SANDBOX_CONTROL === 'true'),
  entities: [],
  cockpit: PermissionsCockpit,
  // Its headless routes are in the document where the module serves them; nothing else of it is.
  document: () => undefined,
  summary: ({ settings }) => [
    `Permission dashboard (PSR): the account holder sees every TPP's consent on their accounts at /dashboard, and withdraws it${settingsOf(settings).reestablish ? ' or re-establishes a withdrawn one' : ''}; a TPP's next request on a withdrawn consent gets 401 CONSENT_INVALID.`,
  ],
};
