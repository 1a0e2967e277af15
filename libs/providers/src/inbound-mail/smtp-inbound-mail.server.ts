import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { InboundMail, InboundMailHandler } from '@app/webhooks';

/** Larger mail is refused at DATA (552). */
const MAX_MAIL_BYTES = 10 * 1024 * 1024;

export interface InboundMailServerOptions {
  port: number;
  host: string;
  /** The name the server greets with. */
  name?: string;
}

/**
 * The inbound mail receiver (smtp-server + mailparser): takes mail only for addresses the handler
 * accepts (our signed reply addresses; any other is refused at RCPT TO with 550), parses it and
 * hands it on. No AUTH (it is a mail exchanger, the addresses are the credential); STARTTLS is not
 * offered, so put it behind a TLS-terminating relay where mail crosses untrusted networks.
 */
export class SmtpInboundMailServer {
  private readonly server: SMTPServer;

  constructor(
    private readonly handler: InboundMailHandler,
    private readonly options: InboundMailServerOptions,
  ) {
    this.server = new SMTPServer({
      name: options.name,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      size: MAX_MAIL_BYTES,
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.handler.accepts(address.address)) return callback();
        callback(Object.assign(new Error('5.1.1 No such reply address here'), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        const recipients = session.envelope.rcptTo.map((entry) => entry.address);
        simpleParser(stream, { skipImageLinks: true, skipTextToHtml: true })
          .then(async (parsed) => {
            if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
              throw Object.assign(new Error(`5.3.4 Message larger than ${MAX_MAIL_BYTES} bytes`), { responseCode: 552 });
            }
            const from = parsed.from?.value[0];
            const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [])
              .flatMap((group) => group.value.map((entry) => entry.address ?? ''))
              .filter(Boolean);
            const mail: InboundMail = {
              ...(from?.address ? { from: { address: from.address, ...(from.name ? { name: from.name } : {}) } } : {}),
              to,
              ...(parsed.subject !== undefined ? { subject: parsed.subject } : {}),
              ...(parsed.text !== undefined ? { text: parsed.text } : {}),
              ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
              attachments: parsed.attachments.map((attachment) => ({
                ...(attachment.filename ? { filename: attachment.filename } : {}),
                contentType: attachment.contentType,
                size: attachment.size,
              })),
              ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
              ...(typeof parsed.inReplyTo === 'string' ? { inReplyTo: parsed.inReplyTo } : {}),
              ...(parsed.date ? { date: parsed.date } : {}),
            };
            await this.handler.receive(recipients, mail);
          })
          // A failure here (the store) is a 451: the sending server tries again later.
          .then(
            () => callback(),
            (error: Error & { responseCode?: number }) =>
              callback(
                Object.assign(new Error(error.responseCode ? error.message : '4.3.0 Temporary failure, try again later'), {
                  responseCode: error.responseCode ?? 451,
                }),
              ),
          );
      },
    });
    this.server.on('error', () => undefined); // a client's broken connection is not the server's failure
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => resolve());
    });
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
