import { ConflictError, InvalidRequestError, NotFoundError, UnprocessableError } from '@app/kernel';

/** Novu's texts (novu-semantics.md §5) where it has one. */
export class IntegrationNotFoundError extends NotFoundError {
  constructor(id: string) {
    super('integration_not_found', `Entity with id ${id} not found`);
  }
}

/** Novu's set-primary validates the path id (400, its validator's text); the other routes answer 404 for it. */
export class MalformedIntegrationIdError extends InvalidRequestError {
  constructor() {
    super('malformed_integration_id', 'integrationId must be a mongodb id');
  }
}

export class IntegrationIdentifierTakenError extends ConflictError {
  constructor(identifier: string) {
    super('integration_identifier_taken', 'Integration with identifier already exists', { identifier });
  }
}

export class InAppIntegrationExistsError extends InvalidRequestError {
  constructor() {
    super('in_app_integration_exists', 'One environment can only have one In app provider');
  }
}

export class NoPropertiesToUpdateError extends InvalidRequestError {
  constructor() {
    super('no_properties_to_update', 'No properties found for update');
  }
}

export class UnknownProviderError extends UnprocessableError {
  constructor(providerId: string) {
    super('unknown_provider', `Unknown providerId "${providerId}"`, {
      errors: { providerId: { messages: [`providerId "${providerId}" is not a supported provider`], value: providerId } },
    });
  }
}

export class ProviderChannelMismatchError extends InvalidRequestError {
  constructor(providerId: string, channel: string, expected: string) {
    super('provider_channel_mismatch', `Provider ${providerId} is a ${expected} provider, not a ${channel} provider`);
  }
}

/** 422 naming every missing field, keyed like a validation error (`credentials.apiKey`). */
export class MissingCredentialsError extends UnprocessableError {
  constructor(providerId: string, missing: string[]) {
    const errors: Record<string, { messages: string[]; value: unknown }> = {};
    for (const key of missing) {
      errors[`credentials.${key}`] = {
        messages: [`credentials.${key} is required for an active ${providerId} integration`],
        value: 'No Value Recorded',
      };
    }
    super('missing_credentials', `Missing credentials for ${providerId}: ${missing.join(', ')}`, { errors });
  }
}

export class IntegrationCheckFailedError extends InvalidRequestError {
  constructor(message: string) {
    super('integration_check_failed', message);
  }
}

export class EnvironmentMismatchError extends InvalidRequestError {
  constructor() {
    super('environment_mismatch', "_environmentId must be the API key's environment: integrations live in the environment of the key");
  }
}

/** Another request kept changing the integration while this one tried to update it. */
export class IntegrationUpdateConflictError extends ConflictError {
  constructor(id: string) {
    super('integration_update_conflict', `Integration ${id} was changed by another request; retry`);
  }
}

export class IntegrationCheckUnavailableError extends InvalidRequestError {
  constructor() {
    super('integration_check_unavailable', 'Live integration checks are not available in this process');
  }
}

/** 422 on `fallbacks`: each must name another live integration of the same channel. */
export class InvalidFallbacksError extends UnprocessableError {
  constructor(problems: string[], value: unknown) {
    super('invalid_fallbacks', `Invalid fallbacks: ${problems.join('; ')}`, { errors: { fallbacks: { messages: problems, value } } });
  }
}

/** 422 on `rateLimit` / `maxConcurrency`: whole numbers in range. */
export class InvalidDeliveryLimitsError extends UnprocessableError {
  constructor(problems: Record<string, string>) {
    super(
      'invalid_delivery_limits',
      `Invalid delivery limits: ${Object.entries(problems)
        .map(([field, problem]) => `${field} ${problem}`)
        .join('; ')}`,
      { errors: Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, { messages: [problem] }])) },
    );
  }
}

/** Only email and sms integrations have a primary (Novu's text). */
export class ChannelWithoutPrimaryError extends InvalidRequestError {
  constructor(channel: string) {
    super('channel_without_primary', `Channel ${channel} does not support primary`);
  }
}
