import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { AuthenticateApiKey, AuthenticatedScope } from '@app/environments';

export const API_KEY_STRATEGY = 'api-key';

@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, API_KEY_STRATEGY) {
  constructor(private readonly authenticateApiKey: AuthenticateApiKey) {
    super({ header: 'Authorization', prefix: 'ApiKey ' }, false);
  }

  validate(apiKey: string): Promise<AuthenticatedScope> {
    return this.authenticateApiKey.execute(apiKey);
  }
}
