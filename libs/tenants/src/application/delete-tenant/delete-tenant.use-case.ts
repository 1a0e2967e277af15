import { Inject, Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { TenantNotFoundError } from '../../domain/errors';
import { TENANT_REPOSITORY, TenantRepository } from '../../ports/tenant.repository.port';

export interface DeleteTenantCommand {
  scope: EnvironmentScope;
  identifier: string;
}

@Injectable()
export class DeleteTenant {
  constructor(@Inject(TENANT_REPOSITORY) private readonly tenants: TenantRepository) {}

  async execute(command: DeleteTenantCommand): Promise<void> {
    if (!(await this.tenants.delete(command.scope, command.identifier))) {
      throw new TenantNotFoundError(command.identifier, command.scope.environmentId);
    }
  }
}
