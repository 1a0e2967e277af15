import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthenticatedScope } from '@app/environments';
import { GetTranslationSettings, UpdateTranslationSettings } from '@app/workflows';
import { ApiCommonErrors, ApiDataResponse } from '../docs/api-responses';
import { CurrentScope } from '../http/api-key.guard';
import { TranslationSettingsResponseDto, UpdateTranslationSettingsDto } from './translation.dto';

/**
 * Novu's organization settings, as far as translations read them: the default locale every lookup
 * falls back to, and the target locales. Kept per environment here (each environment has its own).
 */
@ApiTags('Translations')
@ApiCommonErrors()
@Controller({ path: 'organizations/settings', version: '1' })
export class OrganizationSettingsController {
  constructor(
    private readonly getSettings: GetTranslationSettings,
    private readonly updateSettings: UpdateTranslationSettings,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get the locale settings', description: 'The environment’s default locale (`en_US` until set) and target locales.' })
  @ApiDataResponse(TranslationSettingsResponseDto)
  get(@CurrentScope() scope: AuthenticatedScope): Promise<TranslationSettingsResponseDto> {
    return this.getSettings.execute({ scope });
  }

  @Patch()
  @ApiOperation({ summary: 'Change the locale settings', description: 'The fields given replace the stored ones.' })
  @ApiBody({
    type: UpdateTranslationSettingsDto,
    examples: { german: { summary: 'German by default, English and French targeted', value: { defaultLocale: 'de_DE', targetLocales: ['en_US', 'fr_FR'] } } },
  })
  @ApiDataResponse(TranslationSettingsResponseDto, { description: 'The settings after the change' })
  update(@CurrentScope() scope: AuthenticatedScope, @Body() body: UpdateTranslationSettingsDto): Promise<TranslationSettingsResponseDto> {
    return this.updateSettings.execute({ scope, ...body });
  }
}
