import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { NotificationGroupNotFoundError } from '../../domain/errors';
import { NotificationGroup, defaultNotificationGroup } from '../../domain/workflow-fields';

/** GET /v1/notification-groups/{id}: the default group by its id; there is no other. */
@Injectable()
export class GetNotificationGroup {
  execute({ scope, id }: { scope: EnvironmentScope; id: string }): NotificationGroup {
    const group = defaultNotificationGroup(scope);
    if (group.id !== id) throw new NotificationGroupNotFoundError(id);
    return group;
  }
}
