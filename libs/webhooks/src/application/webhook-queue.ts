import { NewJob } from '@app/kernel';

/** The queue that carries outbound webhook attempts; one queue job per attempt of one delivery. */
export const WEBHOOKS_QUEUE = 'webhooks';

export interface WebhookJobData {
  deliveryId: string;
  /** 1-based attempt this job makes. */
  attempt: number;
}

/** Attempt `attempt` of a delivery: the id makes a repeated add (recovery, a rerun) a no-op. */
export function webhookJob(deliveryId: string, attempt: number, delayMs?: number): NewJob<WebhookJobData> {
  return { id: `${deliveryId}:${attempt}`, data: { deliveryId, attempt }, ...(delayMs ? { delayMs } : {}) };
}
