import { ThrottleDecision, ThrottleRequest, ThrottleWindowRepository } from '@app/delivery';
import { EnvironmentScope } from '@app/kernel';

interface Window {
  environmentId: string;
  openedAt: Date;
  endsAt: Date;
  jobIds: string[];
}

/**
 * ThrottleWindowRepository in memory: one window per (environment, key). `admit` is one step, so
 * concurrent runs serialise as they do on the SQL row.
 */
export class InMemoryThrottleWindowRepository implements ThrottleWindowRepository {
  private readonly windows = new Map<string, Window>();

  purgeEnvironment(environmentId: string): number {
    const doomed = [...this.windows].filter(([, window]) => window.environmentId === environmentId);
    for (const [key] of doomed) this.windows.delete(key);
    return doomed.length;
  }

  async admit(scope: EnvironmentScope, key: string, request: ThrottleRequest): Promise<ThrottleDecision> {
    const id = JSON.stringify([scope.environmentId, key]);
    let window = this.windows.get(id);
    if (!window || window.endsAt.getTime() <= request.at.getTime()) {
      window = { environmentId: scope.environmentId, openedAt: new Date(request.at), endsAt: new Date(request.endsAt), jobIds: [request.jobId] };
      this.windows.set(id, window);
    } else if (!window.jobIds.includes(request.jobId) && window.jobIds.length < request.threshold) {
      window.jobIds.push(request.jobId);
    }
    return {
      admitted: window.jobIds.includes(request.jobId),
      count: window.jobIds.length,
      openedAt: new Date(window.openedAt),
      endsAt: new Date(window.endsAt),
    };
  }

  async deleteOlderThan(before: Date, limit: number): Promise<number> {
    const doomed = [...this.windows]
      .filter(([, window]) => window.endsAt.getTime() < before.getTime())
      .sort(([, a], [, b]) => a.endsAt.getTime() - b.endsAt.getTime())
      .slice(0, Math.max(0, limit));
    for (const [id] of doomed) this.windows.delete(id);
    return doomed.length;
  }
}
