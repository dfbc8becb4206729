import { Module } from '@nestjs/common';
import { GracefulStop } from './graceful-stop';

@Module({ providers: [GracefulStop] })
export class CommonModule {}
