import { NotFoundError } from '@app/kernel';

/** Families of Novu's API that its SDKs can call and this service does not serve, and why. */
export const WHY = {
  feeds: 'feeds are a Novu v0 concept; in-app messages are read through GET /v1/messages and the Inbox API',
  layouts: 'email steps render with one built-in layout',
  'notification-groups': 'every environment has one group, General (GET /v1/notification-groups)',
  changes: 'there is no change promotion between environments: each environment is configured through its own key',
  organizations: 'organizations are managed with the CLI (npm run cli)',
  environments: 'API keys are managed with the CLI (npm run cli); the environments themselves are served under /v1/environments',
  'workflow-overrides': 'tenant workflow overrides are not implemented',
  'inbound-parse': 'inbound mail is received by the SMTP receiver of reply callbacks (INBOUND_MAIL_DOMAIN)',
} as const;
export type Family = keyof typeof WHY;

/** 404 with a body that says the route is Novu's and deliberately not served, rather than a bare "Cannot GET". */
export class NotSupportedError extends NotFoundError {
  constructor(family: Family) {
    super('not_supported', `Novu's ${family} API is not supported by this service: ${WHY[family]}`, { family });
  }
}
