import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, EnvironmentScope } from '@app/kernel';
import { LayoutInvalidError, LayoutNotFoundError } from '../../domain/errors';
import { ShownLayout, layoutControlErrors } from '../../domain/layout';
import { LayoutChanges } from '../../ports/layout.repository.port';
import { LayoutRecords } from '../layouts/layout-records';

export interface UpdateLayoutCommand {
  scope: EnvironmentScope;
  /** Its `_id` or layoutId. */
  layoutId: string;
  changes: LayoutChanges;
  /** true: the environment's default from now on; false: when it is the default, the environment has none. */
  isDefault?: boolean;
}

/** PUT /v2/layouts/{layoutId}: its name, translation switch and controls (checked as Novu checks them), and whether it is the default. */
@Injectable()
export class UpdateLayout {
  constructor(
    private readonly records: LayoutRecords,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ scope, layoutId, changes, isDefault }: UpdateLayoutCommand): Promise<ShownLayout> {
    if (changes.controlValues) {
      const errors = layoutControlErrors(changes.controlValues);
      if (Object.keys(errors).length) throw new LayoutInvalidError(errors);
    }
    const current = await this.records.find(scope, layoutId);
    const now = this.clock.now();
    const updated = await this.records.layouts.update(scope, current.id, changes, now);
    if (!updated) throw new LayoutNotFoundError(layoutId);
    if (isDefault === true) await this.records.layouts.markDefault(scope, updated.id, now);
    if (isDefault === false && (await this.records.layouts.findDefault(scope))?.id === updated.id) await this.records.layouts.markDefault(scope, null, now);
    return this.records.showOne(scope, updated);
  }
}
