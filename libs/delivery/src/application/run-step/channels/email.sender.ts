import { Inject, Injectable } from '@nestjs/common';
import { SUPPRESSION_REPOSITORY, SuppressionRepository } from '../../../ports/suppression.repository.port';
import { skipSuppressed } from './suppressed-address';
import { DETAIL } from '../../../domain/execution-detail';
import { MESSAGE_ERROR_IDS } from '../../../domain/message';
import { failoverChain, selectIntegration } from '../../../domain/select-integration';
import { EmailAttachment, EmailMessage } from '../../../ports/channel-provider.port';
import { StepContext } from '../step-context';
import { StepOutcome } from '../step-outcome';
import { ChannelSupport, objectOf, stringOf, stringsOf } from './channel-support';
import { EmailLayouts } from './email-layouts';
import { ProviderDelivery } from './provider-delivery';
import { ReplyAddresses } from './reply-addresses';

/**
 * Email: one integration (override identifier, conditions, else the primary) and its fallbacks;
 * the subscriber's address or `overrides.email.toRecipient`; subject, preheader and blocks (custom
 * HTML, or a v2 step's HTML or block editor document) rendered into an HTML body and a text part.
 * Sender, reply-to, cc/bcc, extra `to`, headers and attachments come from the overrides (Novu's
 * `overrides.email` and the provider layers) and from `payload.attachments`, as Novu takes them; a
 * v2 step's `from` and `replyTo` apply where the overrides set none (else the integration's sender).
 * A step with an active replyCallback gets a signed Reply-To at INBOUND_MAIL_DOMAIN (ReplyAddresses).
 */
@Injectable()
export class EmailSender {
  constructor(
    private readonly support: ChannelSupport,
    private readonly delivery: ProviderDelivery,
    private readonly replies: ReplyAddresses,
    private readonly layouts: EmailLayouts,
    @Inject(SUPPRESSION_REPOSITORY) private readonly suppressions: SuppressionRepository,
  ) {}

  async execute(context: StepContext): Promise<StepOutcome> {
    const { job, step, subscriber } = context;
    const template = step.template;
    const templates = this.support.templates(context);
    const rendered = await templates.renderEmail(await this.layouts.source(context.workflow, template));
    const templateSenderName = stringOf(templates.render(template.senderName));
    const templateFrom = stringOf(templates.render(template.senderEmail));
    const templateReplyTo = stringOf(templates.render(template.replyTo));
    // As Novu: an email written in editor blocks keeps them (rendered) as its content; HTML is what is sent.
    const recorded = { content: rendered.blocks ? rendered.blocks.map((block) => ({ ...block })) : rendered.html, subject: rendered.subject };

    const active = await this.support.activeIntegrations(context, 'email');
    const integration = selectIntegration(active, 'email', job.overrides, this.support.selection(context));
    if (!integration) return this.support.noIntegration(context);

    const address = stringOf(objectOf(job.overrides.email).toRecipient) ?? subscriber.email;
    if (!address) {
      context.session.insertMessage(
        this.support.recorder.message(context, {
          id: job.id,
          providerId: integration.providerId,
          // As Novu: the message keeps what was rendered for the address it lacked.
          rendered: recorded,
          status: 'warning',
          errorText: 'Subscriber does not have an email address',
          errorId: MESSAGE_ERROR_IDS.missingEmail,
        }),
      );
      this.support.recorder.detail(context, 'Failed', DETAIL.SUBSCRIBER_NO_EMAIL, { source: 'Credentials', providerId: integration.providerId });
      return { kind: 'skipped', providerId: integration.providerId };
    }

    const suppressed = await skipSuppressed(context, this.support, this.suppressions, integration.providerId, 'email', address);
    if (suppressed) return suppressed;

    const attachments = toAttachments(job.payload.attachments);
    // A reply callback: replies go to our inbound mail receiver, which posts them to replyCallback.url (an explicit replyTo override still wins).
    const replyCallbackAddress = step.replyCallback?.active && step.replyCallback.url ? this.replies.forJob(job.id) : undefined;
    const tags = { transactionId: job.transactionId, workflowIdentifier: context.workflow.trigger.identifier, subscriberId: subscriber.subscriberId };
    const build = (id: string, { data }: { data: Record<string, unknown> }): EmailMessage => {
      const html = stringOf(data.html) ?? rendered.html;
      return {
        id,
        to: [...new Set([address, ...stringsOf(data.to)])],
        ...listField('cc', stringsOf(data.cc)),
        ...listField('bcc', stringsOf(data.bcc)),
        ...optional('from', stringOf(data.from) ?? templateFrom),
        ...optional('senderName', stringOf(data.senderName) ?? templateSenderName),
        ...optional('replyTo', stringOf(data.replyTo) ?? templateReplyTo ?? replyCallbackAddress),
        subject: stringOf(data.subject) ?? rendered.subject,
        html,
        text: stringOf(data.text) ?? rendered.text,
        ...listField('attachments', [...attachments, ...toAttachments(data.attachments)]),
        ...optional('headers', stringRecord(data.headers)),
        ...optional('customData', Object.keys(objectOf(data.customData)).length ? objectOf(data.customData) : undefined),
        tags,
      };
    };
    return this.delivery.deliver(
      context,
      'email',
      [{ chain: failoverChain(integration, active), targets: () => [{ address, fields: { email: address }, build }] }],
      recorded,
    );
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function listField<K extends string, V>(key: K, values: V[]): { [P in K]?: V[] } {
  return (values.length ? { [key]: values } : {}) as { [P in K]?: V[] };
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  const entries = Object.entries(objectOf(value)).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/**
 * Novu's attachment shape, `{file, name, mime}` with `file` base64 (or a serialised Buffer);
 * entries without a name or a file are left out.
 */
function toAttachments(value: unknown): EmailAttachment[] {
  if (!Array.isArray(value)) return [];
  const attachments: EmailAttachment[] = [];
  for (const item of value) {
    const entry = objectOf(item);
    const name = stringOf(entry.name);
    const file = entry.file;
    const bytes =
      typeof file === 'string'
        ? Buffer.from(file, 'base64')
        : objectOf(file).type === 'Buffer' && Array.isArray(objectOf(file).data)
          ? Buffer.from(objectOf(file).data as number[])
          : undefined;
    if (!name || !bytes?.length) continue;
    attachments.push({
      name,
      mime: stringOf(entry.mime) ?? 'application/octet-stream',
      file: bytes,
      ...optional('cid', stringOf(entry.cid)),
      ...(entry.disposition === 'inline' || entry.disposition === 'attachment' ? { disposition: entry.disposition } : {}),
    });
  }
  return attachments;
}
