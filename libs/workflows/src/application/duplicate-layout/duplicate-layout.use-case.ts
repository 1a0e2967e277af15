import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ShownLayout } from '../../domain/layout';
import { CreateLayout } from '../create-layout/create-layout.use-case';
import { LayoutRecords } from '../layouts/layout-records';

export interface DuplicateLayoutCommand {
  scope: EnvironmentScope;
  creatorId: string;
  /** The original: its `_id` or layoutId. */
  layoutId: string;
  name: string;
  /** Default: the slug of the name. */
  newLayoutId?: string;
  isTranslationEnabled?: boolean;
}

/** POST /v2/layouts/{layoutId}/duplicate: a new layout with the original's controls under the given name (never the default while one exists). */
@Injectable()
export class DuplicateLayout {
  constructor(
    private readonly records: LayoutRecords,
    private readonly createLayout: CreateLayout,
  ) {}

  async execute(command: DuplicateLayoutCommand): Promise<ShownLayout> {
    const original = await this.records.find(command.scope, command.layoutId);
    return this.createLayout.execute({
      scope: command.scope,
      creatorId: command.creatorId,
      name: command.name,
      layoutId: command.newLayoutId,
      isTranslationEnabled: command.isTranslationEnabled,
      controlValues: original.controlValues,
    });
  }
}
