import { ArgumentMetadata, UnprocessableEntityException, ValidationError, ValidationPipe } from '@nestjs/common';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { isSecretCredential, maskSecret, maskUrl } from '@app/integrations';
import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';

// class-transformer's own @Type registry (the package exports no accessor for it, only this module)
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a deep path with no typings
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

type FieldErrors = Record<string, { messages: string[]; value: unknown }>;

/** An error body never repeats a secret: values of secret fields are shown masked. */
function shownValue(path: string, value: unknown): unknown {
  if (value === undefined) return 'No Value Recorded';
  const field = path.split('.').pop() ?? '';
  if (isSecretCredential(field) || /tlsOptions|SigningKey/.test(path)) return typeof value === 'string' ? maskSecret(value) : '****';
  return typeof value === 'string' && path.startsWith('credentials.') ? maskUrl(value) : value;
}

function collect(errors: ValidationError[], prefix: string, into: FieldErrors): FieldErrors {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      into[path] = { messages: Object.values(error.constraints), value: shownValue(path, error.value) };
    }
    if (error.children?.length) collect(error.children, path, into);
  }
  return into;
}

/**
 * Fields declared as one nested object but sent as an array. class-transformer cannot build those
 * (it throws a TypeError while transforming, before validation), so they are found first, walking
 * the same @Type metadata it uses.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-transformer's metadata is keyed by Function
export function arraysForObjects(dto: Function, plain: unknown, prefix = '', into: FieldErrors = {}): FieldErrors {
  if (!plain || typeof plain !== 'object' || Array.isArray(plain)) return into;
  for (const [key, value] of Object.entries(plain)) {
    const nested = defaultMetadataStorage.findTypeMetadata(dto, key)?.typeFunction() as Function | undefined; // eslint-disable-line @typescript-eslint/no-unsafe-function-type
    if (!nested || value === null || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const declaredArray = Reflect.getMetadata('design:type', dto.prototype, key) === Array;
    if (Array.isArray(value) && !declaredArray) into[path] = { messages: [`${key} must be an object`], value };
    else if (Array.isArray(value)) value.forEach((item, index) => arraysForObjects(nested, item, `${path}.${index}`, into));
    else arraysForObjects(nested, value, path, into);
  }
  return into;
}

type PlainBodyCheck = (body: Record<string, unknown>) => boolean;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- keyed by the DTO class, as Nest's metatype
const plainBodies = new Map<Function, { keys: ReadonlySet<string>; accepts: PlainBodyCheck }>();

/**
 * A hot route's body without class-transformer and class-validator, which copy and walk all of it
 * (the trigger's payload included): `accepts` passes only bodies the DTO's decorators certainly
 * pass, whose top-level keys are all among `keys` (the decorated ones, which whitelisting keeps).
 * Such a body becomes the DTO instance the full pipe would make; any other body, and so every error
 * answer, goes the full way.
 */
export function acceptPlainBody<T extends object>(dto: new () => T, keys: readonly (keyof T & string)[], accepts: PlainBodyCheck): void {
  plainBodies.set(dto, { keys: new Set(keys), accepts });
}

function plainBody(dto: unknown, value: unknown): object | undefined {
  const plain = plainBodies.get(dto as Function); // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  if (!plain || value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  for (const key of Object.keys(value)) if (!plain.keys.has(key)) return undefined;
  if (!plain.accepts(value as Record<string, unknown>)) return undefined;
  return Object.assign(new (dto as new () => object)(), value);
}

/**
 * The pipe of every route; its 422 is `{message: "Validation Error", errors: {<field path>: {messages, value}}}` as behaviour.md sets.
 * Path parameters are identifiers: none may be longer than IDENTIFIER_MAX_LENGTH (no store index could hold it).
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type === 'param' && typeof value === 'string' && value.length > IDENTIFIER_MAX_LENGTH) {
      const name = metadata.data ?? 'path';
      throw new UnprocessableEntityException({
        message: 'Validation Error',
        errors: {
          [name]: { messages: [`${name} must be at most ${IDENTIFIER_MAX_LENGTH} characters (got ${value.length})`], value: `${value.slice(0, 32)}…` },
        },
      });
    }
    const dto = metadata.metatype;
    if (dto && metadata.type === 'body') {
      const accepted = plainBody(dto, value);
      if (accepted) return accepted;
      const misplaced = arraysForObjects(dto, value);
      if (Object.keys(misplaced).length) throw new UnprocessableEntityException({ message: 'Validation Error', errors: misplaced });
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    exceptionFactory: (errors) => new UnprocessableEntityException({ message: 'Validation Error', errors: collect(errors, '', {}) }),
  });
}
