import { EnvironmentScope, Page } from '@app/kernel';
import { Suppression } from '../domain/delivery-event';

/** Addresses email and SMS sends of an environment skip, unique per (environment, address). */
export interface SuppressionRepository {
  /** Inserts unless the address is suppressed already (the first reason stays); true when this call created it. */
  insertIfAbsent(suppression: Suppression): Promise<boolean>;
  /** `address` as stored (suppressionAddress). */
  find(scope: EnvironmentScope, address: string): Promise<Suppression | null>;
  /** Newest first, 0-based pages. */
  list(scope: EnvironmentScope, query: { page: number; limit: number }): Promise<Page<Suppression>>;
  /** False when the address was not suppressed. */
  delete(scope: EnvironmentScope, address: string): Promise<boolean>;
}
export const SUPPRESSION_REPOSITORY = Symbol('SuppressionRepository');
