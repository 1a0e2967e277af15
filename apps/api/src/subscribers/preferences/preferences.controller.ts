import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { GetSubscriberPreferences, Schedule, UpdateSubscriberPreferences } from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../../docs/api-responses';
import { CurrentScope } from '../../http/api-key.guard';
import { PatchSubscriberPreferencesRequestDto, PreferencesQueryDto, SubscriberPreferencesResponseDto } from './preferences.dto';
import { toPreferencesResponse } from './preferences.mapper';

const SubscriberIdParam = () => ApiParam({ name: 'subscriberId', description: 'Your own identifier of the subscriber', example: 'user-123' });

@ApiTags('Subscribers')
@ApiCommonErrors()
@Controller({ path: 'subscribers', version: '2' })
export class PreferencesController {
  constructor(
    private readonly getPreferences: GetSubscriberPreferences,
    private readonly updatePreferences: UpdateSubscriberPreferences,
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

  @Patch(':subscriberId/preferences')
  @ApiOperation({
    summary: "Change a subscriber's preferences",
    description:
      "With workflowId: that workflow's channels (400 for a critical workflow). Without: the global channels and schedule; " +
      "a global channel change also clears that channel's per-workflow choices. Answers with the preferences (nonCritical).",
  })
  @SubscriberIdParam()
  @ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' })
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
