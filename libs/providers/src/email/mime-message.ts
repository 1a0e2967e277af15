import type { SendMailOptions } from 'nodemailer';
import { EmailMessage } from '@app/delivery';

/**
 * One email as nodemailer message options, for the adapters that hand over a whole MIME message
 * (SMTP, SES raw). Content comes from buffers and strings only: nodemailer may never read a
 * file or fetch a URL on a tenant's behalf. The Message-ID derives from our message id, so a
 * retry after an unanswered attempt carries the same Message-ID and receivers can collapse it.
 */
export function mimeMailOptions(message: EmailMessage, sender: { address: string; name?: string }): SendMailOptions {
  return {
    from: sender.name ? { name: sender.name, address: sender.address } : sender.address,
    to: message.to,
    ...(message.cc?.length ? { cc: message.cc } : {}),
    ...(message.bcc?.length ? { bcc: message.bcc } : {}),
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    html: message.html,
    ...(message.text ? { text: message.text } : {}),
    ...(message.attachments?.length
      ? {
          attachments: message.attachments.map((attachment) => ({
            filename: attachment.name,
            content: attachment.file,
            contentType: attachment.mime,
            contentDisposition: attachment.disposition ?? (attachment.cid ? 'inline' : 'attachment'),
            ...(attachment.cid ? { cid: attachment.cid } : {}),
          })),
        }
      : {}),
    ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
    messageId: messageIdOf(message.id, sender.address),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** `<our-id@sender-domain>`, or undefined (nodemailer makes one) when the id is not a safe token. */
function messageIdOf(id: string, senderAddress: string): string | undefined {
  const domain = senderAddress.slice(senderAddress.lastIndexOf('@') + 1);
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(id) || !/^[A-Za-z0-9.-]+$/.test(domain)) return undefined;
  return `<${id}@${domain}>`;
}
