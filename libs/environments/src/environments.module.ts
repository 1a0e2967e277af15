import { Module } from '@nestjs/common';
import { AuthenticateApiKey } from './application/authenticate-api-key/authenticate-api-key.use-case';
import { BootstrapOrganization } from './application/bootstrap-organization/bootstrap-organization.use-case';
import { CreateApiKey } from './application/create-api-key/create-api-key.use-case';
import { CreateEnvironment } from './application/create-environment/create-environment.use-case';
import { ListEnvironments } from './application/list-environments/list-environments.use-case';
import { GetEnvironment } from './application/get-environment/get-environment.use-case';
import { SetInboxHmac } from './application/set-inbox-hmac/set-inbox-hmac.use-case';
import { UpdateEnvironment } from './application/update-environment/update-environment.use-case';
import { DeleteEnvironment } from './application/delete-environment/delete-environment.use-case';
import { CreateEnvironmentVariable } from './application/create-environment-variable/create-environment-variable.use-case';
import { ListEnvironmentVariables } from './application/list-environment-variables/list-environment-variables.use-case';
import { GetEnvironmentVariable } from './application/get-environment-variable/get-environment-variable.use-case';
import { UpdateEnvironmentVariable } from './application/update-environment-variable/update-environment-variable.use-case';
import { DeleteEnvironmentVariable } from './application/delete-environment-variable/delete-environment-variable.use-case';

const useCases = [
  AuthenticateApiKey,
  BootstrapOrganization,
  CreateApiKey,
  CreateEnvironment,
  ListEnvironments,
  GetEnvironment,
  SetInboxHmac,
  UpdateEnvironment,
  DeleteEnvironment,
  CreateEnvironmentVariable,
  ListEnvironmentVariables,
  GetEnvironmentVariable,
  UpdateEnvironmentVariable,
  DeleteEnvironmentVariable,
];

/** Repository tokens come from the global store module the app picks. */
@Module({ providers: useCases, exports: useCases })
export class EnvironmentsModule {}
