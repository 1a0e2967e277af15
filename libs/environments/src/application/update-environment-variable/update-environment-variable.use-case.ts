import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '@app/kernel';
import { AuthenticatedScope } from '../authenticate-api-key/authenticate-api-key.use-case';
import { EnvironmentVariableValueInput, writableValues } from '../create-environment-variable/create-environment-variable.use-case';
import { EnvironmentVariable, EnvironmentVariableChanges, shownVariable } from '../../domain/environment-variable';
import { EnvironmentVariableKeyTakenError, EnvironmentVariableNoChangesError, EnvironmentVariableNotFoundError } from '../../domain/errors';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository } from '../../ports/environment-variable.repository.port';

export interface UpdateEnvironmentVariableCommand {
  caller: AuthenticatedScope;
  key: string;
  changes: Omit<EnvironmentVariableChanges, 'values'> & { values?: EnvironmentVariableValueInput[] };
}

/**
 * PATCH /v1/environment-variables/{key}: the fields given (a new key must be free); `values` merge into
 * the stored ones by environment, the other environments keeping theirs. 400 when nothing is given.
 */
@Injectable()
export class UpdateEnvironmentVariable {
  constructor(
    @Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ caller, key, changes }: UpdateEnvironmentVariableCommand): Promise<EnvironmentVariable> {
    const { values, ...fields } = changes;
    const given: EnvironmentVariableChanges = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    if (values !== undefined) given.values = writableValues(caller, values);
    if (Object.keys(given).length === 0) throw new EnvironmentVariableNoChangesError();
    const result = await this.variables.update(caller.organizationId, key, given, this.clock.now());
    if (result.status === 'not_found') throw new EnvironmentVariableNotFoundError(key);
    if (result.status === 'key_taken') throw new EnvironmentVariableKeyTakenError(given.key!);
    return shownVariable(result.variable, caller.environmentId);
  }
}
