import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/kernel';
import { AuthenticatedScope } from '../authenticate-api-key/authenticate-api-key.use-case';
import { EnvironmentVariable, EnvironmentVariableType, SECRET_MASK, shownVariable } from '../../domain/environment-variable';
import { EnvironmentVariableKeyTakenError, EnvironmentVariableScopeError, SecretMaskValueError } from '../../domain/errors';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository } from '../../ports/environment-variable.repository.port';

/** A value as the API takes it. */
export interface EnvironmentVariableValueInput {
  environmentId: string;
  value: string;
}

/**
 * Values an API key may write, as a map: its own environment's only (Novu's rule for API keys), and
 * never the secret mask, which would overwrite a secret with its placeholder.
 */
export function writableValues(caller: AuthenticatedScope, values: EnvironmentVariableValueInput[]): Record<string, string> {
  for (const { environmentId, value } of values) {
    if (environmentId !== caller.environmentId) throw new EnvironmentVariableScopeError(environmentId);
    if (value === SECRET_MASK) throw new SecretMaskValueError();
  }
  return Object.fromEntries(values.map(({ environmentId, value }) => [environmentId, value]));
}

export interface CreateEnvironmentVariableCommand {
  caller: AuthenticatedScope;
  key: string;
  type?: EnvironmentVariableType;
  isSecret?: boolean;
  values?: EnvironmentVariableValueInput[];
}

/** POST /v1/environment-variables: a key of the organization (409 when taken), answered as the caller sees it. */
@Injectable()
export class CreateEnvironmentVariable {
  constructor(
    @Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ caller, key, type, isSecret, values }: CreateEnvironmentVariableCommand): Promise<EnvironmentVariable> {
    const now = this.clock.now();
    const variable: EnvironmentVariable = {
      id: newId(now.getTime()),
      organizationId: caller.organizationId,
      key,
      type: type ?? 'string',
      isSecret: isSecret ?? false,
      values: writableValues(caller, values ?? []),
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.variables.insert(variable))) throw new EnvironmentVariableKeyTakenError(key);
    return shownVariable(variable, caller.environmentId);
  }
}
