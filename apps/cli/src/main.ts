import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '@app/config';
import {
  BootstrapOrganization,
  CreateApiKey,
  CreateEnvironment,
  ENVIRONMENT_REPOSITORY,
  EnvironmentRepository,
  ListEnvironments,
  SetInboxHmac,
} from '@app/environments';
import { DataDirInUseError } from '@app/store-sql';
import { CliModule } from './cli.module';

const USAGE = `Usage: npm run cli -- <command>
  environments:list                      list environments and their keys (hints only)
  environments:create <name>             create an environment (with its in-app integration) and a key
  keys:create <environmentId>            create another API key for an environment
  environments:hmac <environmentId>=on|off   require (or not) the Inbox subscriberHash in an environment
Uses the same DATABASE_URL / DATA_DIR as the service. With the embedded store (no DATABASE_URL)
one process at a time opens DATA_DIR: stop the service, run the command, then start the service again.`;

type Command = (app: INestApplicationContext, argument: string) => Promise<string>;

/** Each command returns what to print, printed only once the store has closed (so what it reports is stored). */
const COMMANDS: Record<string, { needs?: string; run: Command }> = {
  'environments:list': {
    run: async (app) => {
      const rows = await app.get(ListEnvironments).execute();
      return rows
        .map(
          ({ environment, keys }) =>
            `${environment.id}  ${environment.name}  identifier: ${environment.identifier}  inbox hmac: ${environment.inboxHmac ? 'on' : 'off'}  keys: ${keys.map((k) => `…${k.hint}`).join(', ') || 'none'}`,
        )
        .join('\n');
    },
  },
  'environments:create': {
    needs: 'a name',
    run: async (app, name) => {
      const [organization] = await app.get<EnvironmentRepository>(ENVIRONMENT_REPOSITORY).listOrganizations();
      const environment = await app.get(CreateEnvironment).execute({ organizationId: organization.id, name });
      const { secret } = await app.get(CreateApiKey).execute({ environmentId: environment.id });
      return `Created environment ${environment.name} (${environment.id}, identifier ${environment.identifier})\nAPI key: ${secret}`;
    },
  },
  'environments:hmac': {
    needs: '<environmentId>=on or =off',
    run: async (app, argument) => {
      const [environmentId, value] = argument.split('=');
      if (value !== 'on' && value !== 'off') throw new Error('environments:hmac needs <environmentId>=on or <environmentId>=off');
      await app.get(SetInboxHmac).execute(environmentId, value === 'on');
      return `Inbox HMAC ${value} for environment ${environmentId}`;
    },
  },
  'keys:create': {
    needs: 'an environment id',
    run: async (app, environmentId) => `API key: ${(await app.get(CreateApiKey).execute({ environmentId })).secret}`,
  },
};

async function main(argv: string[]) {
  const [name, argument] = argv;
  if (!name || name === 'help' || name === '--help') return console.log(USAGE);
  const command = COMMANDS[name];
  if (!command) throw new Error(`Unknown command "${name}"\n${USAGE}`);
  if (command.needs && !argument) throw new Error(`${name} needs ${command.needs}`);
  const config = loadConfig();
  // abortOnError: false hands a failure to open the store (e.g. DATA_DIR in use) to the catch below instead of exiting.
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: false, abortOnError: false });
  let output: string;
  try {
    await app.get(BootstrapOrganization).execute(config.bootstrapApiKey);
    output = await command.run(app, argument);
  } finally {
    await app.close();
  }
  if (output) console.log(output);
}

function explain(error: unknown): string {
  if (error instanceof DataDirInUseError) {
    const { dataDir, owner } = error;
    return [
      `DATA_DIR ${dataDir} is open in pid ${owner.pid} (${owner.command}, started ${owner.since}); nothing was written.`,
      'The embedded store takes one process at a time: stop the service, run this command, then start the service again.',
    ].join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(explain(error));
  process.exit(error instanceof ConfigError ? 78 : 1);
});
