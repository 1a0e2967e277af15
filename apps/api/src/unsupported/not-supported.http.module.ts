import { Module } from '@nestjs/common';
import { NotSupportedController } from './not-supported.controller';

/** Novu's route families this service does not serve, each answered with a clear 404 (see NotSupportedController). */
@Module({ controllers: [NotSupportedController] })
export class NotSupportedHttpModule {}
