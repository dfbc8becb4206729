import { Injectable } from '@nestjs/common';
import { button, escapeHtml as escape, form, formValue, link, section, status, table, type Cell } from '../common/html';
import type { CockpitPage, CockpitSection } from '../core/cockpit-section';
import type { World } from '../world/world';
import { BankProfile } from '../profile/bank-profile';
import type { Permission } from './permission';
import { DashboardSettings, PermissionsService } from './permissions.service';

/** A PSU's permissions in the cockpit (docs/cockpit.md, docs/permission-dashboard.md): the client's consents on their accounts, withdrawn and re-established as the holder would. */
@Injectable()
export class PermissionsCockpit implements CockpitSection {
  readonly path = 'permissions';

  constructor(
    private readonly permissions: PermissionsService,
    private readonly profile: BankProfile,
    private readonly settings: DashboardSettings,
  ) {}

  async overview(): Promise<string> {
    const psus = this.profile.rows.psus.map(({ psuId, name }) => [link(`/cockpit/permissions/${encodeURIComponent(psuId)}`, psuId), name]);
    return section(
      "A PSU's permissions (the holder's dashboard)",
      `<p>What each PSU sees on <a href="/dashboard">/dashboard</a>; a scenario's PSU at /cockpit/permissions/&lt;psuId&gt;.</p>${table(['PSU', 'name'], psus)}`,
      'permissions',
    );
  }

  async page(psuId: string, world: World): Promise<CockpitPage> {
    const list = await this.permissions.list({ psuId }, world);
    const row = (permission: Permission, actions: boolean): Cell[] => [
      link(`/cockpit/consents/${permission.consentId}`, permission.consentId),
      permission.tpp.name ?? permission.tpp.organisationName ?? '',
      permission.accounts.map((account) => `${account.iban ?? account.maskedPan}: ${account.uses.join(', ')}`).join('; '),
      permission.validUntil,
      `${permission.usedToday} of ${permission.frequencyPerDay}`,
      permission.lastAccessOn ?? '',
      status(permission.consentStatus),
      ...(actions ? [{ html: this.actions(psuId, permission) }] : []),
    ];
    const headings = ['consent', 'TPP', 'accounts', 'valid until', 'used today', 'last access', 'status'];
    return {
      title: `Permissions of ${psuId}`,
      sections: [
        section(
          'Permissions',
          table(
            [...headings, 'as the holder'],
            list.permissions.map((permission) => row(permission, true)),
          ),
        ),
        section(
          'Record',
          table(
            headings,
            list.record.map((permission) => row(permission, false)),
          ),
        ),
      ],
    };
  }

  async act(psuId: string, action: string, body: Record<string, unknown>, world: World): Promise<string | undefined> {
    const change =
      action === 'withdrawal' ? 'revoke' : action === 'reestablishment' && this.settings.reestablish ? 'reestablish' : undefined;
    if (!change) return undefined;
    const permission = await this.permissions.change(change, formValue(body.consentId), { psuId }, world, 'cockpit');
    return `Consent ${permission.consentId} is ${permission.consentStatus}.`;
  }

  private actions(psuId: string, permission: Permission): string {
    const target = (action: string, text: string) =>
      form(
        `/cockpit/permissions/${encodeURIComponent(psuId)}/${action}`,
        `<input type="hidden" name="consentId" value="${escape(permission.consentId)}">${button(text)}`,
      );
    return [
      permission.canWithdraw ? target('withdrawal', 'Withdraw') : '',
      permission.canReestablish ? target('reestablishment', 'Re-establish') : '',
    ].join('');
  }
}
