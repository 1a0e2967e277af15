import { ApiHeader, ApiNotFoundResponse, ApiParam } from '@nestjs/swagger';
import { ErrorResponseDto } from '../docs/api-responses';

/** Swagger pieces the v1 subscriber controllers share. */
export const SubscriberIdParam = () => ApiParam({ name: 'subscriberId', description: "The caller's own identifier of the subscriber", example: 'user-123' });
export const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
export const SubscriberNotFound = () => ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' });
