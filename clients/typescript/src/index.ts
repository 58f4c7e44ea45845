// @timegate/client: typed access to Timegate's APIs (README.md).
export * from './generated/graphql';
export { createGraphQLClient, GraphQLRequestError, type GraphQLClient, type GraphQLClientOptions, type GraphQLErrorEntry } from './graphql';
export { createRestClient, type RestClientOptions, type paths, type components, type operations } from './rest';
export { subscribeWithResume, type ResumableSubscription, type ResumableSubscriptionOptions } from './subscriptions';
export { verifyWebhook, WebhookVerificationError, type VerifiedWebhook, type VerifyWebhookOptions } from './webhooks';
