import { Module } from '@nestjs/common';
import { TenantsModule } from '@app/tenants';
import { TenantsController } from './tenants.controller';

/** HTTP adapter of the tenants context: controllers and their DTOs. */
@Module({ imports: [TenantsModule], controllers: [TenantsController] })
export class TenantsHttpModule {}
