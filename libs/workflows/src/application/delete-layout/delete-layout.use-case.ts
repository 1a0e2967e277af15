import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutInUseError, LayoutIsDefaultError, LayoutNotFoundError } from '../../domain/errors';
import { TRANSLATION_REPOSITORY, TranslationRepository } from '../../ports/translation.repository.port';
import { LayoutRecords } from '../layouts/layout-records';

export interface DeleteLayoutCommand {
  scope: EnvironmentScope;
  /** Its `_id` or layoutId. */
  layoutId: string;
}

/**
 * DELETE /v2/layouts/{layoutId}. Refused (409) for the environment's default, as Novu refuses it, and
 * for a layout email steps name, with the workflows that use it (Novu would clear their steps' layoutId
 * without a word, changing what they send). Its translations go with it.
 */
@Injectable()
export class DeleteLayout {
  constructor(
    private readonly records: LayoutRecords,
    @Inject(TRANSLATION_REPOSITORY) private readonly translations: TranslationRepository,
  ) {}

  async execute({ scope, layoutId }: DeleteLayoutCommand): Promise<void> {
    const layout = await this.records.find(scope, layoutId);
    if ((await this.records.layouts.findDefault(scope))?.id === layout.id) throw new LayoutIsDefaultError(layout.layoutId);
    const users = await this.records.users(scope, layout.layoutId);
    if (users.length) throw new LayoutInUseError(layout.layoutId, users);
    if (!(await this.records.layouts.delete(scope, layout.id))) throw new LayoutNotFoundError(layoutId);
    await this.translations.deleteResource(scope, { type: 'layout', key: layout.layoutId });
  }
}
