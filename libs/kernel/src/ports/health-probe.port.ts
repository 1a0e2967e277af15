/** A dependency the service cannot work without, which GET /v1/health-check asks whether it answers. */
export interface HealthProbe {
  /** The name the health check reports it under ("store", "redis"). */
  readonly name: string;
  /** Resolves when the dependency answers; rejects with why it does not. */
  ping(): Promise<void>;
}
/** The process's HealthProbes (HealthProbe[]), in the order the health check reports them. */
export const HEALTH_PROBES = Symbol('HealthProbes');
