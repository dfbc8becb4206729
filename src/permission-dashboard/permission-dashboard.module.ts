import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { ClockModule } from '../clock/clock.module';
import { DatabaseModule } from '../database/database.module';
import { OAuthModule } from '../oauth/oauth.module';
import { pageHeaders } from '../sca/page-security';
import { ScaModule } from '../sca/sca.module';
import { DashboardPages, DashboardPagesController, ReestablishmentPageController } from './dashboard-pages.controller';
import { DashboardSessions } from './dashboard-session';
import { PermissionsCockpit } from './permissions-cockpit';
import { DashboardLinksController, PermissionsController, ReestablishmentController } from './permissions.controller';
import { DashboardSettings, PermissionsService } from './permissions.service';

/**
 * The permission dashboard (docs/permission-dashboard.md): its pages, and its headless routes with
 * the control API; re-establishment only where the profile allows it.
 */
@Module({})
export class PermissionDashboardModule implements NestModule {
  static forSandbox(settings: DashboardSettings, control: boolean): DynamicModule {
    const pages = [DashboardPagesController, ...(settings.reestablish ? [ReestablishmentPageController] : [])];
    const headless = control
      ? [PermissionsController, DashboardLinksController, ...(settings.reestablish ? [ReestablishmentController] : [])]
      : [];
    return {
      module: PermissionDashboardModule,
      imports: [DatabaseModule, ClockModule, OAuthModule, ScaModule],
      controllers: [...pages, ...headless],
      providers: [
        { provide: DashboardSettings, useValue: settings },
        PermissionsService,
        DashboardSessions,
        DashboardPages,
        PermissionsCockpit,
      ],
    };
  }

  /** The pages' cookies and headers, mounted once for their paths (as the SCA pages', sca.module.ts). */
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser(), pageHeaders()).forRoutes({ path: 'dashboard{/*path}', method: RequestMethod.ALL });
  }
}
