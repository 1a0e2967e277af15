import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { LayoutUser } from '../../domain/layout';
import { LayoutRecords } from '../layouts/layout-records';

export interface GetLayoutUsageCommand {
  scope: EnvironmentScope;
  /** Its `_id` or layoutId. */
  layoutId: string;
}

/** GET /v2/layouts/{layoutId}/usage: the workflows whose email steps name the layout (those that leave layoutId out use the default without naming it). */
@Injectable()
export class GetLayoutUsage {
  constructor(private readonly records: LayoutRecords) {}

  async execute({ scope, layoutId }: GetLayoutUsageCommand): Promise<LayoutUser[]> {
    const layout = await this.records.find(scope, layoutId);
    return this.records.users(scope, layout.layoutId);
  }
}
