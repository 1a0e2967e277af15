import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength, ValidationOptions } from 'class-validator';
import { IDENTIFIER_MAX_LENGTH } from '@app/kernel';

/**
 * An identifier field (subscriberId, topic key, tenant or integration identifier): a non-empty
 * string of at most IDENTIFIER_MAX_LENGTH characters, the one limit every store index can hold.
 * Path parameters are held to the same limit by the validation pipe.
 */
export function IsIdentifier(options: ValidationOptions = {}): PropertyDecorator {
  return applyDecorators(IsString(options), IsNotEmpty(options), MaxLength(IDENTIFIER_MAX_LENGTH, options));
}
