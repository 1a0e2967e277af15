import { Module } from '@nestjs/common';
import { CreateWorkflow } from './application/create-workflow/create-workflow.use-case';
import { DeleteWorkflow } from './application/delete-workflow/delete-workflow.use-case';
import { GetWorkflow } from './application/get-workflow/get-workflow.use-case';
import { ListWorkflows } from './application/list-workflows/list-workflows.use-case';
import { UpdateWorkflow } from './application/update-workflow/update-workflow.use-case';
import { ChangeWorkflowStatus } from './application/change-workflow-status/change-workflow-status.use-case';
import { ListNotificationGroups } from './application/list-notification-groups/list-notification-groups.use-case';
import { GetNotificationGroup } from './application/get-notification-group/get-notification-group.use-case';
import { WorkflowPublication } from './application/publish-workflows/workflow-publication';
import { DiffEnvironments } from './application/publish-workflows/diff-environments.use-case';
import { PublishEnvironment } from './application/publish-workflows/publish-environment.use-case';
import { SyncWorkflow } from './application/publish-workflows/sync-workflow.use-case';
import { ListEnvironmentTags } from './application/list-environment-tags/list-environment-tags.use-case';
import { SaveTranslation } from './application/translations/save-translation.use-case';
import { GetTranslation } from './application/translations/get-translation.use-case';
import { DeleteTranslation } from './application/translations/delete-translation.use-case';
import { GetTranslationGroup } from './application/translations/get-translation-group.use-case';
import { DeleteTranslationGroup } from './application/translations/delete-translation-group.use-case';
import { UploadTranslations } from './application/translations/upload-translations.use-case';
import { ImportMasterJson } from './application/translations/import-master-json.use-case';
import { UploadMasterJson } from './application/translations/upload-master-json.use-case';
import { ExportMasterJson } from './application/translations/export-master-json.use-case';
import { GetTranslationSettings, UpdateTranslationSettings } from './application/translations/translation-settings.use-case';
import { TranslationResources } from './application/translations/translation-resources';
import { TranslationPublication } from './application/translations/translation-publication';
import { CreateLayout } from './application/create-layout/create-layout.use-case';
import { UpdateLayout } from './application/update-layout/update-layout.use-case';
import { GetLayout } from './application/get-layout/get-layout.use-case';
import { ListLayouts } from './application/list-layouts/list-layouts.use-case';
import { DeleteLayout } from './application/delete-layout/delete-layout.use-case';
import { DuplicateLayout } from './application/duplicate-layout/duplicate-layout.use-case';
import { GetLayoutUsage } from './application/get-layout-usage/get-layout-usage.use-case';
import { LayoutRecords } from './application/layouts/layout-records';
import { GetEnvironmentVariableUsage } from './application/environment-variable-usage/environment-variable-usage.use-case';

const useCases = [
  CreateWorkflow,
  UpdateWorkflow,
  ChangeWorkflowStatus,
  GetWorkflow,
  ListWorkflows,
  DeleteWorkflow,
  ListNotificationGroups,
  GetNotificationGroup,
  DiffEnvironments,
  PublishEnvironment,
  SyncWorkflow,
  ListEnvironmentTags,
  CreateLayout,
  UpdateLayout,
  GetLayout,
  ListLayouts,
  DeleteLayout,
  DuplicateLayout,
  GetLayoutUsage,
  SaveTranslation,
  GetTranslation,
  DeleteTranslation,
  GetTranslationGroup,
  DeleteTranslationGroup,
  UploadTranslations,
  ImportMasterJson,
  UploadMasterJson,
  ExportMasterJson,
  GetTranslationSettings,
  UpdateTranslationSettings,
  GetEnvironmentVariableUsage,
];

/** Use cases of the workflows context; repository tokens come from the global store module. */
@Module({ providers: [...useCases, WorkflowPublication, TranslationResources, TranslationPublication, LayoutRecords], exports: useCases })
export class WorkflowsModule {}
