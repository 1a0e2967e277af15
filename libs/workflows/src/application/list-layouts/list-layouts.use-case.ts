import { Injectable } from '@nestjs/common';
import { EnvironmentScope, Page } from '@app/kernel';
import { ShownLayout } from '../../domain/layout';
import { LayoutSearch } from '../../ports/layout.repository.port';
import { LayoutRecords } from '../layouts/layout-records';

export interface ListLayoutsCommand extends LayoutSearch {
  scope: EnvironmentScope;
}

@Injectable()
export class ListLayouts {
  constructor(private readonly records: LayoutRecords) {}

  async execute({ scope, ...search }: ListLayoutsCommand): Promise<Page<ShownLayout>> {
    const { items, totalCount } = await this.records.layouts.search(scope, search);
    return { items: await this.records.shown(scope, items), totalCount };
  }
}
