/** A reply as the inbound mail receiver parsed it. */
export interface InboundMail {
  from?: { address: string; name?: string };
  /** The addresses in the To header. */
  to: string[];
  subject?: string;
  text?: string;
  html?: string;
  attachments: { filename?: string; contentType: string; size: number }[];
  /** The Message-ID header: a mail server sending the same mail twice sends one callback. */
  messageId?: string;
  inReplyTo?: string;
  date?: Date;
}

/** What the inbound mail receiver (a driving adapter) asks of the service. */
export interface InboundMailHandler {
  /** Whether mail to this address is taken (RCPT TO): only our signed reply addresses are. */
  accepts(address: string): boolean;
  /** One accepted mail, with the envelope's recipients. */
  receive(recipients: string[], mail: InboundMail): Promise<void>;
}
