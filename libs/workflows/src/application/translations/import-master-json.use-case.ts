import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutNotFoundError, WorkflowNotFoundError } from '../../domain/errors';
import { TranslationContent, TranslationInvalidError, TranslationResourceType, requireLocale, translationContentProblems } from '../../domain/translation';
import { SaveTranslation } from './save-translation.use-case';
import { TranslationResources } from './translation-resources';

export interface ImportMasterJsonCommand {
  scope: EnvironmentScope;
  locale: string;
  /** `{workflows: {<workflowId>: content}, layouts: {<layoutId>: content}}`. */
  masterJson: unknown;
}

export interface ImportMasterJsonResult {
  success: boolean;
  message: string;
  /** Resources whose translation was stored, as the file names them (absent when none). */
  successful?: string[];
  /** Resources not found, or whose content is not translation content (absent when none). */
  failed?: string[];
}

/** The master file's sections, by the resource type each holds. */
const SECTIONS: Record<'workflows' | 'layouts', TranslationResourceType> = { workflows: 'workflow', layouts: 'layout' };

/**
 * POST /v2/translations/master-json: one locale's translations of many resources at once, each
 * replacing that resource's translation in the locale. A resource that is not found, or whose
 * content is not translation content, is reported failed; the others are stored.
 */
@Injectable()
export class ImportMasterJson {
  constructor(
    private readonly resources: TranslationResources,
    private readonly saveTranslation: SaveTranslation,
  ) {}

  async execute({ scope, locale, masterJson }: ImportMasterJsonCommand): Promise<ImportMasterJsonResult> {
    const wanted = requireLocale(locale);
    const entries = masterJsonEntries(masterJson);
    if (entries.length === 0) return { success: false, message: 'No supported resources found in the master JSON (workflows, layouts)' };
    const successful: string[] = [];
    const failed: string[] = [];
    for (const { type, reference, content } of entries) {
      if (Object.keys(translationContentProblems(content)).length > 0) {
        failed.push(reference);
        continue;
      }
      try {
        await this.saveTranslation.save(scope, await this.resources.resolve(scope, type, reference), wanted, content as TranslationContent);
        successful.push(reference);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError || error instanceof LayoutNotFoundError)) throw error;
        failed.push(reference);
      }
    }
    const message =
      failed.length === 0
        ? `Imported the ${wanted} translations of ${successful.length} resource(s)`
        : successful.length === 0
          ? `Failed to import any resources: ${failed.length} resource(s) not found or not translation content`
          : `Partial import completed: ${successful.length} resource(s) imported, ${failed.length} failed`;
    return { success: successful.length > 0, message, ...(successful.length ? { successful } : {}), ...(failed.length ? { failed } : {}) };
  }
}

/** The resources a master JSON names, section by section; a section that is not an object is refused (422). */
function masterJsonEntries(masterJson: unknown): { type: TranslationResourceType; reference: string; content: unknown }[] {
  if (masterJson === null || typeof masterJson !== 'object' || Array.isArray(masterJson)) {
    throw new TranslationInvalidError({ masterJson: { messages: ['masterJson must be an object with workflows and layouts'], value: masterJson } });
  }
  const entries: { type: TranslationResourceType; reference: string; content: unknown }[] = [];
  for (const [section, type] of Object.entries(SECTIONS)) {
    const resources = (masterJson as Record<string, unknown>)[section];
    if (resources === undefined) continue;
    if (resources === null || typeof resources !== 'object' || Array.isArray(resources)) {
      throw new TranslationInvalidError({
        [`masterJson.${section}`]: { messages: [`masterJson.${section} must be an object of resource ids to translations`], value: resources },
      });
    }
    for (const [reference, content] of Object.entries(resources)) entries.push({ type, reference, content });
  }
  return entries;
}
