import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { ENVIRONMENT_PROVISIONER } from '@app/environments';
import { CreateIntegration } from './application/create-integration/create-integration.use-case';
import { DeleteIntegration } from './application/delete-integration/delete-integration.use-case';
import { ListActiveIntegrations } from './application/list-active-integrations/list-active-integrations.use-case';
import { ListIntegrations } from './application/list-integrations/list-integrations.use-case';
import { ProvisionEnvironmentIntegrations } from './application/provision-environment-integrations/provision-environment-integrations.use-case';
import { UpdateIntegration } from './application/update-integration/update-integration.use-case';
import { SetIntegrationPrimary } from './application/set-integration-primary/set-integration-primary.use-case';
import { GetInAppStatus } from './application/get-in-app-status/get-in-app-status.use-case';
import { AesGcmCredentialCipher } from './infrastructure/aes-gcm.credential-cipher';
import { CREDENTIAL_CIPHER } from './ports/credential-cipher.port';

const useCases = [
  CreateIntegration,
  UpdateIntegration,
  SetIntegrationPrimary,
  DeleteIntegration,
  ListIntegrations,
  ListActiveIntegrations,
  GetInAppStatus,
  ProvisionEnvironmentIntegrations,
];

/**
 * Use cases of the integrations context. The repository token comes from the global store module
 * and the live-check adapter (INTEGRATION_CHECKER) from the provider adapters the app picks.
 * Global because others need what it provides: EnvironmentsModule's CreateEnvironment picks up the
 * provisioner, and the store adapters need the credential cipher.
 */
@Global()
@Module({
  providers: [
    ...useCases,
    { provide: ENVIRONMENT_PROVISIONER, useExisting: ProvisionEnvironmentIntegrations },
    { provide: CREDENTIAL_CIPHER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new AesGcmCredentialCipher(config.encryptionKey) },
  ],
  exports: [...useCases, ENVIRONMENT_PROVISIONER, CREDENTIAL_CIPHER],
})
export class IntegrationsModule {}
