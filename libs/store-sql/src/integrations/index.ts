import { Provider } from '@nestjs/common';
import { INTEGRATION_REPOSITORY } from '@app/integrations';
import { SqlIntegrationRepository } from './sql-integration.repository';

export { SqlIntegrationRepository } from './sql-integration.repository';
// Repository adapters of the integrations context, bound to their port tokens.
export const sqlIntegrationsProviders: Provider[] = [{ provide: INTEGRATION_REPOSITORY, useClass: SqlIntegrationRepository }];
