import { Injectable } from '@nestjs/common';
import { EnvironmentScope } from '@app/kernel';
import { NotificationGroup, defaultNotificationGroup } from '../../domain/workflow-fields';

/** GET /v1/notification-groups: the environment's one group, "General" (groups cannot be made here). */
@Injectable()
export class ListNotificationGroups {
  execute({ scope }: { scope: EnvironmentScope }): NotificationGroup[] {
    return [defaultNotificationGroup(scope)];
  }
}
