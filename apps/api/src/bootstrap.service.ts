import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { BootstrapOrganization } from '@app/environments';

/** Creates the first organization, environment and key on an empty store, and prints the key. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly bootstrap: BootstrapOrganization,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { createdKey } = await this.bootstrap.execute(this.config.bootstrapApiKey);
    if (createdKey) this.logger.log(`${createdKey.environmentName} environment API key: ${createdKey.secret}`);
  }
}
