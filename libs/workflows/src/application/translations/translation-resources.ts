import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutNotFoundError, WorkflowNotFoundError } from '../../domain/errors';
import {
  DEFAULT_TRANSLATION_SETTINGS,
  Translation,
  TranslationContent,
  TranslationResource,
  TranslationResourceType,
  TranslationSettings,
} from '../../domain/translation';
import { workflowReference } from '../../domain/workflow';
import { LAYOUT_REPOSITORY, LayoutRepository } from '../../ports/layout.repository.port';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { WORKFLOW_REPOSITORY, WorkflowRepository } from '../../ports/workflow.repository.port';

/** A resource as a caller names it and as its translations are stored. */
export interface NamedResource {
  resource: TranslationResource;
  /** What answers call it: a workflow's workflowId, a layout's layoutId. */
  identifier: string;
  name: string;
}

/** A translation as Novu answers it: its resource by identifier. */
export interface TranslationView {
  resourceId: string;
  resourceType: TranslationResourceType;
  locale: string;
  content: TranslationContent;
  createdAt: Date;
  updatedAt: Date;
}

export function translationView(named: NamedResource, translation: Translation): TranslationView {
  const { locale, content, createdAt, updatedAt } = translation;
  return { resourceId: named.identifier, resourceType: named.resource.type, locale, content, createdAt, updatedAt };
}

/** What the translation use cases share: finding the resource a caller names, and the environment's locale settings. */
@Injectable()
export class TranslationResources {
  constructor(
    @Inject(WORKFLOW_REPOSITORY) private readonly workflows: WorkflowRepository,
    @Inject(LAYOUT_REPOSITORY) private readonly layouts: LayoutRepository,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  /** The resource a caller names: a live workflow by workflowId, internal id or slug; a layout by layoutId or internal id (404 when there is none). */
  async resolve(scope: EnvironmentScope, type: TranslationResourceType, reference: string): Promise<NamedResource> {
    if (type === 'layout') {
      const layout = await this.layouts.findByReference(scope, reference);
      if (!layout) throw new LayoutNotFoundError(reference);
      return { resource: { type, key: layout.layoutId }, identifier: layout.layoutId, name: layout.name };
    }
    const workflow = await this.workflows.findByIdOrIdentifier(scope, workflowReference(reference));
    if (!workflow) throw new WorkflowNotFoundError(reference);
    return { resource: { type, key: workflow.id }, identifier: workflow.trigger.identifier, name: workflow.name };
  }

  /** The resource stored translations belong to, or null when it is gone. */
  async describe(scope: EnvironmentScope, resource: TranslationResource): Promise<NamedResource | null> {
    if (resource.type === 'layout') {
      const layout = await this.layouts.findByReference(scope, resource.key);
      return layout ? { resource, identifier: layout.layoutId, name: layout.name } : null;
    }
    const workflow = await this.workflows.findById(scope, resource.key);
    return workflow ? { resource, identifier: workflow.trigger.identifier, name: workflow.name } : null;
  }

  async settings(scope: EnvironmentScope): Promise<TranslationSettings> {
    return (await this.translations.findSettings(scope)) ?? DEFAULT_TRANSLATION_SETTINGS;
  }
}
