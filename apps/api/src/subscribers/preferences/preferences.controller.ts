import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiHeader, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { BulkUpdateSubscriberPreferences, GetSubscriberPreferences, Schedule, UpdateSubscriberPreferences } from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../../docs/api-responses';
import { CurrentScope } from '../../http/api-key.guard';
import { InboxPreferenceDto } from '../../shared-dto/inbox.dto';
import { toInboxWorkflowPreference } from '../../shared-dto/inbox.mapper';
import {
  BulkUpdatePreferencesRequestDto,
  PatchSubscriberPreferencesRequestDto,
  PreferencesQueryDto,
  SubscriberPreferencesResponseDto,
} from './preferences.dto';
import { toPreferencesResponse } from './preferences.mapper';

const SubscriberIdParam = () => ApiParam({ name: 'subscriberId', description: 'Your own identifier of the subscriber', example: 'user-123' });

@ApiTags('Subscribers')
@ApiCommonErrors()
@Controller({ path: 'subscribers', version: '2' })
export class PreferencesController {
  constructor(
    private readonly getPreferences: GetSubscriberPreferences,
    private readonly updatePreferences: UpdateSubscriberPreferences,
    private readonly bulkUpdatePreferences: BulkUpdateSubscriberPreferences,
  ) {}

  @Get(':subscriberId/preferences')
  @ApiOperation({
    summary: "Get a subscriber's preferences",
    description: 'Global preferences and, per active workflow (filtered by criticality), the channels as they resolve for this subscriber.',
  })
  @SubscriberIdParam()
  @ApiDataResponse(SubscriberPreferencesResponseDto)
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such subscriber' })
  async get(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Query() query: PreferencesQueryDto,
  ): Promise<SubscriberPreferencesResponseDto> {
    return toPreferencesResponse(await this.getPreferences.execute({ scope, subscriberId, criticality: query.criticality }));
  }

  @Patch(':subscriberId/preferences/bulk')
  @ApiOperation({
    summary: "Change several workflows' preferences at once",
    description:
      'Every workflow is checked first (404 naming the unknown ones, 400 for critical ones), then each is changed; ' +
      "entries naming the same workflow count once, the last winning. Answers each changed workflow's preference in Novu's Inbox shape.",
  })
  @SubscriberIdParam()
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' })
  @ApiDataResponse(InboxPreferenceDto, { isArray: true, description: "The changed workflows' preferences" })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such subscriber, or unknown workflows ("Workflows with ids: … not found")' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A workflow is critical, or no preferences were given' })
  async bulkUpdate(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: BulkUpdatePreferencesRequestDto,
  ): Promise<InboxPreferenceDto[]> {
    const changed = await this.bulkUpdatePreferences.execute({
      scope,
      subscriberId,
      preferences: body.preferences.map((entry) => ({ workflowId: entry.workflowId, channels: { ...entry.channels } })),
    });
    return changed.map(toInboxWorkflowPreference);
  }

  @Patch(':subscriberId/preferences')
  @ApiOperation({
    summary: "Change a subscriber's preferences",
    description:
      "With workflowId: that workflow's channels (400 for a critical workflow). Without: the global channels and schedule; " +
      "a global channel change also clears that channel's per-workflow choices. Answers with the preferences (nonCritical).",
  })
  @SubscriberIdParam()
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' })
  // A sample of every field would send a schedule with a workflowId, which is refused.
  @ApiBody({
    type: PatchSubscriberPreferencesRequestDto,
    examples: {
      global: {
        summary: 'Global channels and quiet hours',
        value: {
          channels: { email: true, sms: false },
          schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } },
        },
      },
      workflow: { summary: "One workflow's channels", value: { workflowId: 'welcome', channels: { email: false, in_app: true } } },
    },
  })
  @ApiDataResponse(SubscriberPreferencesResponseDto, { description: 'The preferences after the change' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such subscriber, or no such workflow ("Workflow cannot be found")' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The workflow is critical, or a schedule was sent with workflowId' })
  async update(
    @CurrentScope() scope: AuthenticatedScope,
    @Param('subscriberId') subscriberId: string,
    @Body() body: PatchSubscriberPreferencesRequestDto,
  ): Promise<SubscriberPreferencesResponseDto> {
    const view = await this.updatePreferences.execute({
      scope,
      subscriberId,
      ...(body.workflowId !== undefined ? { workflowId: body.workflowId } : {}),
      ...(body.channels ? { channels: { ...body.channels } } : {}),
      ...(body.schedule ? { schedule: toSchedule(body.schedule) } : {}),
    });
    return toPreferencesResponse(view);
  }
}

// Plain objects with only the fields we know, days left out staying out.
function toSchedule(dto: NonNullable<PatchSubscriberPreferencesRequestDto['schedule']>): Schedule {
  const weekly: NonNullable<Schedule['weeklySchedule']> = {};
  for (const [day, value] of Object.entries(dto.weeklySchedule ?? {})) {
    if (!value) continue;
    weekly[day as keyof typeof weekly] = {
      isEnabled: value.isEnabled,
      ...(value.hours ? { hours: value.hours.map((h: { start: string; end: string }) => ({ start: h.start, end: h.end })) } : {}),
    };
  }
  return { isEnabled: dto.isEnabled, ...(dto.weeklySchedule ? { weeklySchedule: weekly } : {}) };
}
