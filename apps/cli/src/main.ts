import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import {
  BootstrapOrganization,
  CreateApiKey,
  CreateEnvironment,
  ENVIRONMENT_REPOSITORY,
  EnvironmentRepository,
  ListEnvironments,
} from '@app/environments';
import { CliModule } from './cli.module';

const USAGE = `Usage: npm run cli -- <command>
  environments:list                      list environments and their keys (hints only)
  environments:create <name>             create an environment (with its in-app integration) and a key
  keys:create <environmentId>            create another API key for an environment
Uses the same DATABASE_URL / DATA_DIR as the service.`;

async function main(argv: string[]) {
  const [command, argument] = argv;
  if (!command || command === 'help' || command === '--help') return console.log(USAGE);
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error'] });
  try {
    await app.get(BootstrapOrganization).execute(config.bootstrapApiKey);
    switch (command) {
      case 'environments:list': {
        for (const { environment, keys } of await app.get(ListEnvironments).execute()) {
          console.log(`${environment.id}  ${environment.name}  keys: ${keys.map((k) => `…${k.hint}`).join(', ') || 'none'}`);
        }
        break;
      }
      case 'environments:create': {
        if (!argument) throw new Error('environments:create needs a name');
        const [organization] = await app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY).listOrganizations();
        const environment = await app.get(CreateEnvironment).execute({ organizationId: organization.id, name: argument });
        const { secret } = await app.get(CreateApiKey).execute({ environmentId: environment.id });
        console.log(`Created environment ${environment.name} (${environment.id})\nAPI key: ${secret}`);
        break;
      }
      case 'keys:create': {
        if (!argument) throw new Error('keys:create needs an environment id');
        const { secret } = await app.get(CreateApiKey).execute({ environmentId: argument });
        console.log(`API key: ${secret}`);
        break;
      }
      default:
        throw new Error(`Unknown command "${command}"\n${USAGE}`);
    }
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error.message ?? error);
  process.exit(error instanceof ConfigError ? 78 : 1);
});
