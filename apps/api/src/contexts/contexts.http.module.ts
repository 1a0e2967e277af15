import { Module } from '@nestjs/common';
import { ContextsModule } from '@app/contexts';
import { ContextsController } from './contexts.controller';

/** HTTP adapter of the contexts context: /v2/contexts. */
@Module({ imports: [ContextsModule], controllers: [ContextsController] })
export class ContextsHttpModule {}
