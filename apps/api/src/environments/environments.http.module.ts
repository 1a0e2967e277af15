import { Module } from '@nestjs/common';
import { EnvironmentsModule } from '@app/environments';
import { EnvironmentsController } from './environments.controller';

/** HTTP adapter of the environments context: GET /v1/environments/me. */
@Module({ imports: [EnvironmentsModule], controllers: [EnvironmentsController] })
export class EnvironmentsHttpModule {}
