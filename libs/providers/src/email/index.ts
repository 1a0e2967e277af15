import { ProviderAdapter, ProviderRuntime } from '../provider-runtime';
import { EmailWebhookProvider } from './email-webhook/email-webhook.provider';
import { MailgunProvider } from './mailgun/mailgun.provider';
import { MailjetProvider } from './mailjet/mailjet.provider';
import { NodemailerProvider } from './nodemailer/nodemailer.provider';
import { PostmarkProvider } from './postmark/postmark.provider';
import { ResendProvider } from './resend/resend.provider';
import { SendgridProvider } from './sendgrid/sendgrid.provider';
import { SendinblueProvider } from './sendinblue/sendinblue.provider';
import { SesProvider } from './ses/ses.provider';

/** Every email provider. */
export function emailProviders(runtime: ProviderRuntime): ProviderAdapter<'email'>[] {
  return [
    new NodemailerProvider(runtime),
    new SendgridProvider(runtime),
    new MailgunProvider(runtime),
    new SesProvider(runtime),
    new PostmarkProvider(runtime),
    new ResendProvider(runtime),
    new SendinblueProvider(runtime),
    new MailjetProvider(runtime),
    new EmailWebhookProvider(runtime),
  ];
}
