import { Body, Controller, Get, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { SubscriberSession } from '@app/inbox';
import { BulkUpdateSubscriberPreferences, GetSubscriberPreferences, UpdateSubscriberPreferences } from '@app/subscribers';
import { ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { PublicRoute } from '../http/api-key.guard';
import { InboxChannelsDto, InboxPreferenceDto } from '../shared-dto/inbox.dto';
import { toInboxWorkflowPreference } from '../shared-dto/inbox.mapper';
import { BulkPreferencesRequestDto } from './inbox.dto';
import { channelsOf, findWorkflowPreference, toInboxGlobalPreference } from './inbox.mapper';
import { CurrentSubscriber, SubscriberTokenGuard } from './subscriber-token.guard';

/** The subscriber's own preferences, through the subscribers context's preference use cases. */
@ApiTags('Inbox')
@PublicRoute()
@UseGuards(SubscriberTokenGuard)
@ApiBearerAuth()
@ApiResponse({ status: 401, description: 'Missing, forged or expired subscriber token', type: ErrorResponseDto })
@Controller({ path: 'inbox/preferences', version: '1' })
export class InboxPreferencesController {
  constructor(
    private readonly getPreferences: GetSubscriberPreferences,
    private readonly updatePreferences: UpdateSubscriberPreferences,
    private readonly bulkUpdate: BulkUpdateSubscriberPreferences,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List preferences: global first, then one per active non-critical workflow' })
  @ApiDataResponse(InboxPreferenceDto, { isArray: true })
  async list(@CurrentSubscriber() session: SubscriberSession): Promise<InboxPreferenceDto[]> {
    const view = await this.getPreferences.execute({ scope: session, subscriberId: session.subscriberId });
    return [toInboxGlobalPreference(view), ...view.workflows.map(toInboxWorkflowPreference)];
  }

  @Get('global')
  @ApiOperation({ summary: 'The global preference' })
  @ApiDataResponse(InboxPreferenceDto)
  async global(@CurrentSubscriber() session: SubscriberSession): Promise<InboxPreferenceDto> {
    return toInboxGlobalPreference(await this.getPreferences.execute({ scope: session, subscriberId: session.subscriberId }));
  }

  @Patch()
  @ApiOperation({ summary: 'Change the global channels', description: "A global change also clears that channel's per-workflow choices, as Novu." })
  @ApiDataResponse(InboxPreferenceDto, { description: 'The global preference after the change' })
  async updateGlobal(@CurrentSubscriber() session: SubscriberSession, @Body() body: InboxChannelsDto): Promise<InboxPreferenceDto> {
    return toInboxGlobalPreference(await this.updatePreferences.execute({ scope: session, subscriberId: session.subscriberId, channels: channelsOf(body) }));
  }

  @Patch('bulk')
  @ApiOperation({ summary: "Change several workflows' channels at once" })
  @ApiDataResponse(InboxPreferenceDto, { isArray: true, description: "The changed workflows' preferences" })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'A workflow does not exist' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A workflow is critical' })
  async bulk(@CurrentSubscriber() session: SubscriberSession, @Body() body: BulkPreferencesRequestDto): Promise<InboxPreferenceDto[]> {
    const changed = await this.bulkUpdate.execute({
      scope: session,
      subscriberId: session.subscriberId,
      preferences: body.preferences.map((entry) => ({ workflowId: entry.workflowId, channels: channelsOf(entry) })),
    });
    return changed.map(toInboxWorkflowPreference);
  }

  @Patch(':workflowId')
  @ApiOperation({ summary: "Change one workflow's channels" })
  @ApiParam({ name: 'workflowId', description: 'Workflow id, trigger identifier or slug' })
  @ApiDataResponse(InboxPreferenceDto, { description: "The workflow's preference after the change" })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No such workflow' })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'The workflow is critical' })
  async updateWorkflow(
    @CurrentSubscriber() session: SubscriberSession,
    @Param('workflowId') workflowId: string,
    @Body() body: InboxChannelsDto,
  ): Promise<InboxPreferenceDto> {
    const view = await this.updatePreferences.execute({ scope: session, subscriberId: session.subscriberId, workflowId, channels: channelsOf(body) });
    return findWorkflowPreference(view, workflowId);
  }
}
