import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope, GetEnvironment } from '@app/environments';
import { ApiCommonErrors, ApiDataResponse } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';

export class EnvironmentResponseDto {
  @ApiProperty({ description: 'Environment id' }) _id: string;
  @ApiProperty({ description: 'Environment name', example: 'Development' }) name: string;
  @ApiProperty({ description: 'Organization id' }) _organizationId: string;
  @ApiProperty({ description: "Public identifier: the Inbox's applicationIdentifier", example: 'Xy3kPq0aBc1d' }) identifier: string;
  @ApiProperty({ description: 'Whether the Inbox session requires subscriberHash (HMAC)' }) inboxHmac: boolean;
  @ApiProperty({ description: 'Created at (ISO-8601)' }) createdAt: string;
}

@ApiTags('Environments')
@ApiCommonErrors()
@Controller({ path: 'environments', version: '1' })
export class EnvironmentsController {
  constructor(private readonly getEnvironment: GetEnvironment) {}

  @Get('me')
  @ApiOperation({ summary: "The API key's environment", description: "Its identifier is what Novu's Inbox clients take as applicationIdentifier." })
  @ApiDataResponse(EnvironmentResponseDto)
  async me(@CurrentScope() scope: AuthenticatedScope): Promise<EnvironmentResponseDto> {
    const environment = await this.getEnvironment.execute(scope.environmentId);
    return {
      _id: environment.id,
      name: environment.name,
      _organizationId: environment.organizationId,
      identifier: environment.identifier,
      inboxHmac: environment.inboxHmac,
      createdAt: environment.createdAt.toISOString(),
    };
  }
}
