import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@app/config';
import { jobOfReplyAddress, replyAddress } from '../../../domain/reply-address';

/**
 * Reply-To addresses of email steps with a reply callback, at INBOUND_MAIL_DOMAIN, signed with a key
 * derived from STORE_ENCRYPTION_KEY (so every api and worker process makes and checks the same ones).
 * Without INBOUND_MAIL_DOMAIN there are none.
 */
@Injectable()
export class ReplyAddresses {
  private readonly key?: Buffer;
  private readonly domain?: string;

  constructor(@Optional() @Inject(APP_CONFIG) config?: AppConfig) {
    this.domain = config?.inboundMailDomain;
    if (config) this.key = createHmac('sha256', config.encryptionKey).update('reply-callback-addresses').digest();
  }

  /** The address a reply to this job's email goes to; undefined when reply callbacks are off. */
  forJob(jobId: string): string | undefined {
    return this.key && this.domain ? replyAddress(jobId, this.key, this.domain) : undefined;
  }

  /** The job a recipient address names, if it is one of ours. */
  jobOf(address: string): string | undefined {
    return this.key && this.domain ? jobOfReplyAddress(address, this.key, this.domain) : undefined;
  }
}
