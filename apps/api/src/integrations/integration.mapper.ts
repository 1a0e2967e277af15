import { Condition } from '@app/kernel';
import { Integration, IntegrationCredentials, effectiveDeliveryLimits, maskConfigurations, maskCredentials } from '@app/integrations';
import { ConditionDto, IntegrationResponseDto } from './integration.dto';
import { definedOnly } from '../shared-dto/defined-only';

/** Domain → wire: secrets masked, dates as ISO strings, optional fields left out rather than null. */
export function toIntegrationResponse(integration: Integration): IntegrationResponseDto {
  return {
    _id: integration.id,
    _environmentId: integration.environmentId,
    _organizationId: integration.organizationId,
    name: integration.name,
    identifier: integration.identifier,
    providerId: integration.providerId,
    channel: integration.channel,
    credentials: maskCredentials(integration.credentials),
    configurations: maskConfigurations(integration.configurations),
    active: integration.active,
    deleted: integration.deleted,
    ...(integration.deletedAt ? { deletedAt: integration.deletedAt.toISOString() } : {}),
    ...(integration.deletedBy ? { deletedBy: integration.deletedBy } : {}),
    primary: integration.primary,
    priority: integration.priority,
    conditions: integration.conditions as ConditionDto[],
    fallbacks: integration.fallbacks,
    ...(integration.rateLimit ? { rateLimit: integration.rateLimit } : {}),
    ...(integration.maxConcurrency ? { maxConcurrency: integration.maxConcurrency } : {}),
    effectiveLimits: effectiveDeliveryLimits(integration),
    createdAt: integration.createdAt.toISOString(),
    updatedAt: integration.updatedAt.toISOString(),
  };
}

/** Validated DTO instances → plain values: only the fields the caller sent. */
export function definedFields<T extends object>(dto: T | undefined): Partial<T> | undefined {
  return dto && definedOnly(dto);
}

export function toCredentials(dto: object | undefined): Record<string, IntegrationCredentials[string] | null> | undefined {
  return definedFields(dto) as Record<string, IntegrationCredentials[string] | null> | undefined;
}

export function toConditions(dtos: ConditionDto[] | undefined): Condition[] | undefined {
  return dtos?.map((c) => ({
    ...(c.isNegated !== undefined ? { isNegated: c.isNegated } : {}),
    ...(c.type !== undefined ? { type: c.type } : {}),
    value: c.value,
    children: c.children.map(({ field, value, operator, on }) => ({ field, value, operator, on })),
  }));
}
