import { Inject, Injectable } from '@nestjs/common';
import { CONTEXT_REPOSITORY, ContextRepository, contextVariables } from '@app/contexts';
import { ENVIRONMENT_VARIABLE_REPOSITORY, EnvironmentVariableRepository, readsEnvironmentVariables } from '@app/environments';
import type { Workflow } from '@app/workflows';
import { StepContext } from './step-context';

/** Whether workflow content reads a `context` variable. */
const readsContexts = (content: unknown): boolean => /(^|[^\w$])context\b/.test(JSON.stringify(content) ?? '');

/**
 * What a step's variables hold beyond its job, subscriber and workflow: the environment's variables
 * (`env`) and the notification's contexts (`context`), as they are when the step runs. Each is read
 * only when the workflow's steps name it, so most steps read nothing more.
 */
@Injectable()
export class StepSources {
  /** Per workflow record (the cache hands out one per load): which sources its steps read. */
  private readonly reads = new WeakMap<object, { env: boolean; contexts: boolean }>();

  constructor(
    @Inject(ENVIRONMENT_VARIABLE_REPOSITORY) private readonly variables: EnvironmentVariableRepository,
    @Inject(CONTEXT_REPOSITORY) private readonly contexts: ContextRepository,
  ) {}

  async load(context: StepContext): Promise<void> {
    const { scope, job } = context;
    const reads = this.readsOf(context.workflow);
    const [env, contexts] = await Promise.all([
      reads.env ? this.variables.valuesFor(scope.organizationId, scope.environmentId) : undefined,
      reads.contexts && job.contextKeys?.length ? this.contexts.findByKeys(scope, job.contextKeys) : undefined,
    ]);
    if (env) context.env = env;
    if (contexts) context.contexts = contextVariables(contexts);
  }

  private readsOf(workflow: Workflow): { env: boolean; contexts: boolean } {
    let reads = this.reads.get(workflow);
    if (!reads) this.reads.set(workflow, (reads = { env: readsEnvironmentVariables(workflow.steps), contexts: readsContexts(workflow.steps) }));
    return reads;
  }
}
