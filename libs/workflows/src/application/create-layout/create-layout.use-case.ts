import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope, newId } from '@app/kernel';
import { LayoutIdTakenError, LayoutInvalidError } from '../../domain/errors';
import { Layout, LayoutControlValues, NEW_LAYOUT_CONTROLS, ShownLayout, layoutIdentifierFor } from '../../domain/layout';
import { LayoutRecords } from '../layouts/layout-records';

export interface CreateLayoutCommand {
  scope: EnvironmentScope;
  /** Who created it (the API key's id). */
  creatorId: string;
  name: string;
  /** Default: the slug of the name. */
  layoutId?: string;
  isTranslationEnabled?: boolean;
  /** Default: a plain HTML document holding `{{ content }}` (a duplicate: its original's). */
  controlValues?: LayoutControlValues | null;
}

/**
 * POST /v2/layouts (and a duplicate): a layout of the environment; the environment's first one (when
 * it has no default) becomes its default, as Novu's does.
 */
@Injectable()
export class CreateLayout {
  constructor(
    private readonly records: LayoutRecords,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(command: CreateLayoutCommand): Promise<ShownLayout> {
    const { scope } = command;
    const layoutId = layoutIdentifierFor(command.name, command.layoutId);
    if (typeof layoutId !== 'string') throw new LayoutInvalidError(layoutId);
    const now = this.clock.now();
    const makesDefault = !(await this.records.layouts.findDefault(scope));
    const layout: Layout = {
      id: newId(now.getTime()),
      ...scope,
      layoutId,
      name: command.name,
      isTranslationEnabled: command.isTranslationEnabled ?? false,
      controlValues: command.controlValues === undefined ? NEW_LAYOUT_CONTROLS : command.controlValues,
      ...(makesDefault ? { defaultSince: now } : {}),
      creatorId: command.creatorId,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.records.layouts.insert(layout))) throw new LayoutIdTakenError(layoutId);
    return this.records.showOne(scope, layout);
  }
}
