import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/config';
import { SmtpInboundMailServer } from '@app/providers';
import { ReceiveReply } from '@app/webhooks';

/** Runs the inbound mail receiver for reply callbacks in this process when INBOUND_MAIL_PORT is set (the worker, or the embedded process). */
@Injectable()
export class InboundMailReceiver implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InboundMailReceiver.name);
  private server?: SmtpInboundMailServer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly receiveReply: ReceiveReply,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { inboundMailPort: port, inboundMailDomain: domain } = this.config;
    if (port === undefined) return;
    if (!domain) this.logger.warn('INBOUND_MAIL_PORT is set without INBOUND_MAIL_DOMAIN: no reply address exists, so every recipient is refused');
    this.server = new SmtpInboundMailServer(this.receiveReply, { port, host: this.config.host, name: domain });
    const listening = await this.server.listen();
    this.logger.log(`Inbound mail for reply callbacks on ${this.config.host}:${listening} (@${domain ?? '-'})`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.server?.close();
  }
}
