import { Injectable } from '@nestjs/common';
import { WorkflowPublication } from '../publish-workflows/workflow-publication';

/** GET /v2/environments/{id}/tags: the tags of the environment's live workflows, each once, sorted. */
@Injectable()
export class ListEnvironmentTags {
  constructor(private readonly publication: WorkflowPublication) {}

  async execute({ organizationId, environmentId }: { organizationId: string; environmentId: string }): Promise<string[]> {
    const scope = await this.publication.scope(organizationId, environmentId);
    const tags = new Set((await this.publication.live(scope)).flatMap((workflow) => workflow.tags));
    return [...tags].sort();
  }
}
