import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { ShownLayout } from '../../domain/layout';
import { LayoutRecords } from '../layouts/layout-records';

export interface GetLayoutCommand {
  scope: EnvironmentScope;
  /** Its `_id` or layoutId. */
  layoutId: string;
}

@Injectable()
export class GetLayout {
  constructor(private readonly records: LayoutRecords) {}

  async execute({ scope, layoutId }: GetLayoutCommand): Promise<ShownLayout> {
    return this.records.showOne(scope, await this.records.find(scope, layoutId));
  }
}
