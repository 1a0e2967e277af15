import { Module } from '@nestjs/common';
import { WorkflowsModule } from '@app/workflows';
import { OrganizationSettingsController } from './organization-settings.controller';
import { TranslationsController } from './translations.controller';

/** HTTP adapter of translations: /v2/translations and the locale settings (/v1/organizations/settings). */
@Module({ imports: [WorkflowsModule], controllers: [TranslationsController, OrganizationSettingsController] })
export class TranslationsHttpModule {}
