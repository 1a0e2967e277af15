import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { BootstrapOrganization } from '@app/environments';

/**
 * Creates the first organization, environment and key on an empty store, and prints a short
 * block saying where the data lives, the key, where Swagger is and one request to try. The block
 * is printed whatever LOG_LEVEL is (it is the one thing a first run must show), as text on a
 * terminal or as one JSON line when logs are JSON.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  constructor(
    private readonly bootstrap: BootstrapOrganization,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { createdKey } = await this.bootstrap.execute(this.config.bootstrapApiKey);
    if (!createdKey) return;
    const chosen = createdKey.secret === this.config.bootstrapApiKey;
    // A key the operator chose is theirs already: never print it into logs.
    const key = chosen ? '(the key in BOOTSTRAP_API_KEY)' : createdKey.secret;
    const origin = `http://${this.config.host === '0.0.0.0' || this.config.host === '::' ? 'localhost' : this.config.host}:${this.config.port}`;
    const notice = {
      data: dataLocation(this.config),
      environment: createdKey.environmentName,
      apiKey: key,
      swagger: `${origin}/api`,
      tryIt: `curl -H "Authorization: ApiKey ${chosen ? '$BOOTSTRAP_API_KEY' : createdKey.secret}" ${origin}/v1/integrations`,
    };
    if (this.config.logFormat === 'json') {
      process.stdout.write(
        `${JSON.stringify({ level: 'info', time: Date.now(), context: 'FirstStart', msg: 'Created the first environment and its API key', ...notice })}\n`,
      );
      return;
    }
    process.stdout.write(
      [
        '',
        'First start: created the Development environment.',
        `  Data       ${notice.data}`,
        `  API key    ${notice.apiKey}   (shown once: keep it)`,
        `  Swagger    ${notice.swagger}`,
        `  Try        ${notice.tryIt}`,
        '',
      ].join('\n') + '\n',
    );
  }
}

/** Where the records live, without credentials. */
function dataLocation(config: AppConfig): string {
  if (config.store.kind === 'pglite') return `${config.store.dataDir} (embedded PostgreSQL; delete the folder to start over)`;
  const url = new URL(config.store.url!);
  return `${url.protocol}//${url.host}${url.pathname}`;
}
