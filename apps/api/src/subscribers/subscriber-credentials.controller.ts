import { Body, Controller, Delete, HttpCode, Param, Patch, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { CredentialsUpdateMode, DeleteSubscriberCredentials, UpdateSubscriberCredentials } from '@app/subscribers';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { UpdateSubscriberChannelRequestDto } from './credentials.dto';
import { SubscriberResponseDto } from '../shared-dto/subscriber.dto';
import { toSubscriberResponse } from '../shared-dto/subscriber.mapper';

const SubscriberIdParam = () => ApiParam({ name: 'subscriberId', description: "The caller's own identifier of the subscriber", example: 'user-123' });
const IdempotencyKeyHeader = () =>
  ApiHeader({ name: 'idempotency-key', required: false, description: 'Makes a retry of this request safe: replayed for 24 h' });
const BadRequest = () =>
  ApiBadRequestResponse({
    type: ErrorResponseDto,
    description: 'Unknown subscriber, no active integration of that provider, or more than 100 device tokens',
  });

@ApiTags('Subscriber credentials')
@ApiCommonErrors()
@Controller({ path: 'subscribers/:subscriberId/credentials', version: '1' })
export class SubscriberCredentialsController {
  constructor(
    private readonly updateCredentials: UpdateSubscriberCredentials,
    private readonly deleteCredentials: DeleteSubscriberCredentials,
  ) {}

  @Put()
  @ApiOperation({ summary: "Set a subscriber's chat/push credentials for a provider; device tokens are replaced by the list given" })
  @SubscriberIdParam()
  @ApiDataResponse(SubscriberResponseDto, { description: 'The subscriber with its channels' })
  @BadRequest()
  replace(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Body() body: UpdateSubscriberChannelRequestDto) {
    return this.update(scope, subscriberId, body, 'replace');
  }

  @Patch()
  @ApiOperation({ summary: "Add to a subscriber's chat/push credentials for a provider; device tokens are appended (de-duplicated)" })
  @SubscriberIdParam()
  @IdempotencyKeyHeader()
  @ApiDataResponse(SubscriberResponseDto, { description: 'The subscriber with its channels' })
  @BadRequest()
  append(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Body() body: UpdateSubscriberChannelRequestDto) {
    return this.update(scope, subscriberId, body, 'append');
  }

  @Delete(':providerId')
  @HttpCode(204)
  @ApiOperation({ summary: "Remove a subscriber's credentials of one provider" })
  @SubscriberIdParam()
  @ApiParam({ name: 'providerId', description: 'The chat or push provider id', example: 'fcm' })
  @ApiNoContentResponse({ description: 'Removed (or there were none)' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No subscriber with that subscriberId' })
  async remove(@CurrentScope() scope: AuthenticatedScope, @Param('subscriberId') subscriberId: string, @Param('providerId') providerId: string): Promise<void> {
    await this.deleteCredentials.execute({ scope, subscriberId, providerId });
  }

  private async update(
    scope: AuthenticatedScope,
    subscriberId: string,
    body: UpdateSubscriberChannelRequestDto,
    mode: CredentialsUpdateMode,
  ): Promise<SubscriberResponseDto> {
    const details = await this.updateCredentials.execute({
      scope,
      subscriberId,
      providerId: body.providerId,
      integrationIdentifier: body.integrationIdentifier,
      credentials: { ...body.credentials },
      mode,
    });
    return toSubscriberResponse(details);
  }
}
