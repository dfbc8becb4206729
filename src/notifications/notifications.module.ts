import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { NotificationsService } from './notifications.service';

/** Status notifications to TPP-Notification-URI (docs/notifications.md); the event history comes from the global EventsModule. */
@Module({
  imports: [DatabaseModule],
  providers: [NotificationsService],
  exports: [NotificationsService],
})
export class NotificationsModule {}
