import { Module } from '@nestjs/common';
import { CreateContext } from './application/create-context/create-context.use-case';
import { DeleteContext } from './application/delete-context/delete-context.use-case';
import { GetContext } from './application/get-context/get-context.use-case';
import { ListContexts } from './application/list-contexts/list-contexts.use-case';
import { UpdateContext } from './application/update-context/update-context.use-case';

const useCases = [CreateContext, GetContext, ListContexts, UpdateContext, DeleteContext];

/** Use cases of the contexts context; the repository token comes from the global store module. */
@Module({ providers: useCases, exports: useCases })
export class ContextsModule {}
