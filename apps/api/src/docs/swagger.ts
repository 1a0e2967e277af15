import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

export const API_KEY_SECURITY = 'api-key';

/** Swagger UI at /api, the OpenAPI JSON at /api-json, generated from the controllers and DTOs. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Notification service API')
    .setDescription(
      'Self-hostable notification delivery, wire-compatible with the Novu v1/v2 REST API. ' +
        'Authenticate with `Authorization: ApiKey <key>`; the key selects the environment. ' +
        'POST and PATCH accept an `Idempotency-Key` header. Identifiers (subscriberId, topic key, tenant and integration identifiers, ' +
        'every path parameter) are at most 256 characters; strings must be well-formed Unicode without NUL (422 naming the field).',
    )
    .setVersion('1.0')
    // In the Authorize dialog the value is the whole header; a description in a code span keeps `<key>` visible.
    .addApiKey(
      {
        type: 'apiKey',
        name: 'Authorization',
        in: 'header',
        description: 'The whole header value: `ApiKey <your key>` (the word ApiKey, a space, then the key)',
      },
      API_KEY_SECURITY,
    )
    .addSecurityRequirements(API_KEY_SECURITY)
    .build();
  // Built at the first request for it, not at every start: scanning every route costs about half a second of CPU.
  SwaggerModule.setup('api', app, () => SwaggerModule.createDocument(app, config), { jsonDocumentUrl: 'api-json' });
}
