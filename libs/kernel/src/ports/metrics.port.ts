/**
 * What the use cases count for operators (Prometheus at `GET /metrics` when the app wires an
 * adapter). Narrow on purpose: a use case says what happened, the adapter decides names and labels.
 */

/** What became of one provider attempt (one message through one integration). */
export type DeliveryOutcome =
  /** the provider took the message (in-app: the message was stored) */
  | 'sent'
  /** failed for good, no integration left to try */
  | 'failed'
  /** failed, will be tried again after a backoff */
  | 'retried'
  /** failed for good here; the delivery moves on to a fallback integration */
  | 'failed_over';

/** What a throttle step did with a run: let it through, or stopped it (the window was full). */
export type ThrottleOutcome = 'admitted' | 'throttled';

/** What a reconciler re-enqueued: accepted triggers, or step jobs the queue had lost. */
export type ReconcileKind = 'triggers' | 'steps';

export interface Metrics {
  /** A trigger was answered with `status` (`processed`, `trigger_not_active`…). */
  triggerAccepted(status: string): void;
  /** One delivery attempt and its outcome; `durationMs` when a provider was called (how long the call took). */
  delivery(channel: string, providerId: string, outcome: DeliveryOutcome, durationMs?: number): void;
  /** A reconciler run re-enqueued `count` items. */
  reconciled(kind: ReconcileKind, count: number): void;
  /** A throttle step decided a run. */
  throttle(outcome: ThrottleOutcome): void;
}
export const METRICS = Symbol('Metrics');

/** Counts nothing: for processes that serve no metrics, and for unit tests. */
export const noopMetrics: Metrics = {
  triggerAccepted: () => undefined,
  delivery: () => undefined,
  reconciled: () => undefined,
  throttle: () => undefined,
};
