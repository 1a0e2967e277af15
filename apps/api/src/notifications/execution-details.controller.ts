import { Controller, Get, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsMongoId } from 'class-validator';
import { AuthenticatedScope } from '@app/environments';
import { ExecutionDetail, GetExecutionDetails, STEP_TYPES } from '@app/delivery';
import { ApiCommonErrors, ApiDataResponse, ErrorResponseDto } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { IsIdentifier } from '../http/identifier';
import { ActivityExecutionDetailResponseDto } from './notification.dto';
import { toExecutionDetailResponse } from './notification.mapper';

export class ExecutionDetailsQueryDto {
  @ApiProperty({ description: 'The notification `_id` (one per subscriber and trigger)', example: '6650a1b2c3d4e5f6a7b8c9d0' })
  @IsMongoId()
  notificationId: string;

  @ApiProperty({ description: "The subscriberId of the notification's subscriber", example: 'user-123' })
  @IsIdentifier()
  subscriberId: string;
}

export class ExecutionDetailResponseDto extends ActivityExecutionDetailResponseDto {
  @ApiProperty({ description: 'Organization id' })
  _organizationId: string;
  @ApiProperty({ description: 'Environment id' })
  _environmentId: string;
  @ApiProperty({ description: 'The job (step) the detail is about' })
  _jobId: string;
  @ApiProperty({ description: 'The notification' })
  _notificationId: string;
  @ApiProperty({ description: "The notification's workflow" })
  _notificationTemplateId: string;
  @ApiProperty({ description: 'Internal id of the subscriber' })
  _subscriberId: string;
  @ApiProperty({ description: 'The transactionId of the trigger' })
  transactionId: string;
  @ApiPropertyOptional({ description: 'Step type of the job', enum: STEP_TYPES })
  channel?: string;
}

function toResponse(detail: ExecutionDetail, workflowId: string): ExecutionDetailResponseDto {
  return {
    ...toExecutionDetailResponse(detail),
    _organizationId: detail.organizationId,
    _environmentId: detail.environmentId,
    _jobId: detail.jobId,
    _notificationId: detail.notificationId,
    _notificationTemplateId: workflowId,
    _subscriberId: detail.subscriberId,
    transactionId: detail.transactionId,
    ...(detail.channel !== undefined ? { channel: detail.channel } : {}),
  };
}

@ApiTags('Execution details')
@ApiCommonErrors()
@Controller({ path: 'execution-details', version: '1' })
export class ExecutionDetailsController {
  constructor(private readonly getExecutionDetails: GetExecutionDetails) {}

  @Get()
  @ApiOperation({
    summary: "Every execution detail of one subscriber's notification, oldest first",
    description: "Empty when the notification is not that subscriber's. GET /v1/notifications/{id} shows the same details by job.",
  })
  @ApiDataResponse(ExecutionDetailResponseDto, { isArray: true, description: 'The execution details' })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Subscriber not found for id <subscriberId>' })
  async list(@CurrentScope() scope: AuthenticatedScope, @Query() query: ExecutionDetailsQueryDto): Promise<ExecutionDetailResponseDto[]> {
    const { workflowId, details } = await this.getExecutionDetails.execute({ scope, notificationId: query.notificationId, subscriberId: query.subscriberId });
    return details.map((detail) => toResponse(detail, workflowId ?? ''));
  }
}
