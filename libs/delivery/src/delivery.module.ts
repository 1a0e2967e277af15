import { Module } from '@nestjs/common';
import { SubscribersModule } from '@app/subscribers';
import { CancelTrigger } from './application/cancel-trigger/cancel-trigger.use-case';
import { DeleteMessagesByTransaction } from './application/delete-messages/delete-messages-by-transaction.use-case';
import { FanOut } from './application/fan-out/fan-out.use-case';
import { BroadcastRecipients } from './application/fan-out/broadcast-recipients';
import { InlineRecipients } from './application/fan-out/inline-recipients';
import { NotificationBatches } from './application/fan-out/notification-batches';
import { TopicRecipients } from './application/fan-out/topic-recipients';
import { GetNotificationActivity } from './application/get-notification/get-notification.use-case';
import { ListMessages } from './application/list-messages/list-messages.use-case';
import { ListNotifications } from './application/list-notifications/list-notifications.use-case';
import { PurgeExpiredRecords } from './application/purge-expired-records/purge-expired-records.use-case';
import { ReconcileTriggers } from './application/reconcile-triggers/reconcile-triggers.use-case';
import { RecoverSteps } from './application/recover-steps/recover-steps.use-case';
import { RunStep } from './application/run-step/run-step.use-case';
import { ChannelSupport } from './application/run-step/channels/channel-support';
import { ChatSender } from './application/run-step/channels/chat.sender';
import { EmailSender } from './application/run-step/channels/email.sender';
import { EmailLayouts } from './application/run-step/channels/email-layouts';
import { InAppSender } from './application/run-step/channels/in-app.sender';
import { ProviderDelivery } from './application/run-step/channels/provider-delivery';
import { PushSender } from './application/run-step/channels/push.sender';
import { SmsSender } from './application/run-step/channels/sms.sender';
import { VendorPacing } from './application/run-step/channels/vendor-pacing';
import { StepRecorder } from './application/run-step/channels/step-recorder';
import { ReplyAddresses } from './application/run-step/channels/reply-addresses';
import { SendChannelStep } from './application/run-step/send-channel-step';
import { StepChain } from './application/run-step/step-chain';
import { StepTranslations } from './application/run-step/step-translations';
import { StepGate } from './application/run-step/step-gate';
import { PreviousSteps } from './application/run-step/previous-steps';
import { StepSources } from './application/run-step/step-sources';
import { StepHandlers } from './application/run-step/step-handlers';
import { ChainSessions } from './application/run-step/chain-sessions';
import { DelayStep } from './application/run-step/steps/delay.step';
import { DigestStep } from './application/run-step/steps/digest.step';
import { HttpRequestStep } from './application/run-step/steps/http-request.step';
import { JsonSchemas } from './application/json-schemas';
import { ThrottleStep } from './application/run-step/steps/throttle.step';
import { TriggerEvent } from './application/trigger-event/trigger-event.use-case';
import { ReceiveVendorEvents } from './application/receive-vendor-events/receive-vendor-events.use-case';
import { ListSuppressions } from './application/list-suppressions/list-suppressions.use-case';
import { LiftSuppression } from './application/lift-suppression/lift-suppression.use-case';
import { GetWebhookSupportStatus } from './application/get-webhook-support-status/get-webhook-support-status.use-case';
import { GetExecutionDetails } from './application/get-execution-details/get-execution-details.use-case';
import { PreviewStep } from './application/preview-step/preview-step.use-case';
import { PreviewLayout } from './application/preview-layout/preview-layout.use-case';

const useCases = [
  TriggerEvent,
  FanOut,
  RunStep,
  CancelTrigger,
  ReconcileTriggers,
  RecoverSteps,
  ListMessages,
  DeleteMessagesByTransaction,
  GetNotificationActivity,
  ListNotifications,
  PurgeExpiredRecords,
  ReceiveVendorEvents,
  ListSuppressions,
  LiftSuppression,
  GetWebhookSupportStatus,
  GetExecutionDetails,
  PreviewStep,
  PreviewLayout,
];

/** FanOut's parts: a source per kind of recipient, and the batches they deliver to. */
const fanOutParts = [NotificationBatches, InlineRecipients, TopicRecipients, BroadcastRecipients];

/** RunStep's parts: its writes, gate and chain moves, the step handlers, and the per-channel senders behind SendChannelStep. */
const stepParts = [
  ChainSessions,
  StepGate,
  PreviousSteps,
  StepSources,
  StepChain,
  StepRecorder,
  StepHandlers,
  SendChannelStep,
  StepTranslations,
  DelayStep,
  DigestStep,
  ThrottleStep,
  HttpRequestStep,
  JsonSchemas,
];
const channelSenders = [
  ChannelSupport,
  VendorPacing,
  ProviderDelivery,
  ReplyAddresses,
  InAppSender,
  EmailLayouts,
  EmailSender,
  SmsSender,
  ChatSender,
  PushSender,
];

/** Use cases of the delivery context; queue, providers, renderer and repositories are bound globally. */
@Module({ imports: [SubscribersModule], providers: [...useCases, ...fanOutParts, ...stepParts, ...channelSenders], exports: useCases })
export class DeliveryModule {}
