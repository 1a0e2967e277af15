import { UnprocessableEntityException, ValidationError, ValidationPipe } from '@nestjs/common';

type FieldErrors = Record<string, { messages: string[]; value: unknown }>;

function collect(errors: ValidationError[], prefix: string, into: FieldErrors): FieldErrors {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) {
      into[path] = { messages: Object.values(error.constraints), value: error.value === undefined ? 'No Value Recorded' : error.value };
    }
    if (error.children?.length) collect(error.children, path, into);
  }
  return into;
}

/** 422 `{message: "Validation Error", errors: {<field path>: {messages, value}}}` as behaviour.md sets. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    exceptionFactory: (errors) =>
      new UnprocessableEntityException({ message: 'Validation Error', errors: collect(errors, '', {}) }),
  });
}
