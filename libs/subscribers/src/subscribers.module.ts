import { Module, Provider } from '@nestjs/common';
import { BulkCreateSubscribers } from './application/bulk-create-subscribers/bulk-create-subscribers.use-case';
import { ListSubscribersPage } from './application/list-subscribers-page/list-subscribers-page.use-case';
import { AddTopicSubscriptions } from './application/add-topic-subscriptions/add-topic-subscriptions.use-case';
import { CreateSubscriber } from './application/create-subscriber/create-subscriber.use-case';
import { DeleteSubscriber } from './application/delete-subscriber/delete-subscriber.use-case';
import { DeleteSubscriberCredentials } from './application/delete-subscriber-credentials/delete-subscriber-credentials.use-case';
import { DeleteTopic } from './application/delete-topic/delete-topic.use-case';
import { GetSubscriber } from './application/get-subscriber/get-subscriber.use-case';
import { GetTopic } from './application/get-topic/get-topic.use-case';
import { ListTopicSubscriptions } from './application/list-topic-subscriptions/list-topic-subscriptions.use-case';
import { ListTopics } from './application/list-topics/list-topics.use-case';
import { ListSubscriberSubscriptions } from './application/list-subscriber-subscriptions/list-subscriber-subscriptions.use-case';
import { UpdateTopicSubscription } from './application/update-topic-subscription/update-topic-subscription.use-case';
import { ListTopicsPage } from './application/list-topics-page/list-topics-page.use-case';
import { GetTopicMembers } from './application/get-topic-members/get-topic-members.use-case';
import { GetTopicSubscription } from './application/get-topic-subscription/get-topic-subscription.use-case';
import { RemoveTopicSubscriptions } from './application/remove-topic-subscriptions/remove-topic-subscriptions.use-case';
import { SearchSubscribers } from './application/search-subscribers/search-subscribers.use-case';
import { UpdateSubscriber } from './application/update-subscriber/update-subscriber.use-case';
import { UpdateSubscriberCredentials } from './application/update-subscriber-credentials/update-subscriber-credentials.use-case';
import { UpdateTopic } from './application/update-topic/update-topic.use-case';
import { UpsertSubscriber, UpsertSubscribers } from './application/upsert-subscriber/upsert-subscriber.use-case';
import { UpsertTopic } from './application/upsert-topic/upsert-topic.use-case';
import { GetSubscriberPreferences } from './application/get-subscriber-preferences/get-subscriber-preferences.use-case';
import { UpdateSubscriberPreferences } from './application/update-subscriber-preferences/update-subscriber-preferences.use-case';
import { BulkUpdateSubscriberPreferences } from './application/bulk-update-subscriber-preferences/bulk-update-subscriber-preferences.use-case';

const subscriberUseCases: Provider[] = [
  SearchSubscribers,
  CreateSubscriber,
  GetSubscriber,
  UpdateSubscriber,
  DeleteSubscriber,
  UpsertSubscriber,
  UpsertSubscribers,
  UpdateSubscriberCredentials,
  DeleteSubscriberCredentials,
  ListSubscribersPage,
  BulkCreateSubscribers,
];

const topicUseCases: Provider[] = [
  UpsertTopic,
  GetTopic,
  ListTopics,
  UpdateTopic,
  DeleteTopic,
  AddTopicSubscriptions,
  RemoveTopicSubscriptions,
  ListTopicSubscriptions,
  ListSubscriberSubscriptions,
  UpdateTopicSubscription,
  ListTopicsPage,
  GetTopicMembers,
  GetTopicSubscription,
];

// Add further use cases of this context (preferences…) to this list.
const preferenceUseCases: Provider[] = [GetSubscriberPreferences, UpdateSubscriberPreferences, BulkUpdateSubscriberPreferences];

const useCases: Provider[] = [...subscriberUseCases, ...topicUseCases, ...preferenceUseCases];

/** Use cases of the subscribers context; repository tokens come from the global store module. */
@Module({ providers: useCases, exports: useCases })
export class SubscribersModule {}
