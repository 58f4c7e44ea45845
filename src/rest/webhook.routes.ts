import { limits } from '../services/common/validation';
import { listLimits } from '../services/common/input-limits';
import { EVENT_TYPES } from '../events/event-types';
import { object, oneOf, text } from './body-schemas';
import { webhookDeliveryFields, webhookEndpointFields } from './fragments';
import { idParam, MAX_LONG_ID, type RestRoute } from './route';

// URL format, event type names and reachability are the service's checks (same errors in GraphQL).
const endpointBodyFields = {
  url: {
    ...text(limits.url),
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://\\S',
    'x-error-codes': { pattern: 'invalid_url' },
    'x-error-message': 'must be an absolute http:// or https:// URL',
  },
  event_types: {
    type: 'array',
    maxItems: listLimits.eventTypes,
    items: { ...oneOf([...EVENT_TYPES]), 'x-error-codes': { enum: 'unknown_event_type' }, 'x-error-message': `must be one of ${EVENT_TYPES.join(', ')}` },
  },
  description: text(limits.description),
  enabled: { type: 'boolean' },
};

export const webhookRoutes: RestRoute[] = [
  {
    name: 'listWebhookEndpoints',
    method: 'GET',
    path: '/public/v2/webhooks',
    list: true,
    document: `query ($first: Int, $after: String) {
      webhookEndpoints(first: $first, after: $after) { totalCount nodes { ...WebhookEndpointFields } } } ${webhookEndpointFields}`,
    resultField: 'webhookEndpoints',
    status: 200,
    variables: () => ({}),
  },
  {
    name: 'getWebhookEndpoint',
    method: 'GET',
    path: '/public/v2/webhooks/:id',
    document: `query ($id: Int!) { webhookEndpoint(id: $id) { ...WebhookEndpointFields } } ${webhookEndpointFields}`,
    resultField: 'webhookEndpoint',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'createWebhookEndpoint',
    method: 'POST',
    path: '/public/v2/webhooks',
    body: {
      schema: object(endpointBodyFields, ['url', 'event_types']),
      wrapper: 'webhook',
      example: { url: 'https://hooks.example.com/timegate', event_types: ['attendance.created', 'device.offline'], description: 'HR system' },
    },
    document: `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { ...WebhookEndpointFields } } ${webhookEndpointFields}`,
    resultField: 'createWebhookEndpoint',
    status: 201,
    variables: ({ body }) => ({ input: body }),
  },
  {
    name: 'updateWebhookEndpoint',
    method: 'PUT',
    path: '/public/v2/webhooks/:id',
    body: { schema: object(endpointBodyFields), wrapper: 'webhook', example: { enabled: false } },
    document: `mutation ($id: Int!, $input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) { ...WebhookEndpointFields } } ${webhookEndpointFields}`,
    resultField: 'updateWebhookEndpoint',
    status: 200,
    variables: ({ params, body }) => ({ id: idParam(params.id), input: body }),
  },
  {
    name: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/public/v2/webhooks/:id',
    document: `mutation ($id: Int!) { deleteWebhookEndpoint(id: $id) { ...WebhookEndpointFields } } ${webhookEndpointFields}`,
    resultField: 'deleteWebhookEndpoint',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'rotateWebhookSecret',
    method: 'POST',
    path: '/public/v2/webhooks/:id/rotate_secret',
    document: `mutation ($id: Int!) { rotateWebhookSecret(id: $id) { ...WebhookEndpointFields } } ${webhookEndpointFields}`,
    resultField: 'rotateWebhookSecret',
    status: 200,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'testWebhookEndpoint',
    method: 'POST',
    path: '/public/v2/webhooks/:id/test',
    document: `mutation ($id: Int!) { testWebhookEndpoint(id: $id) { ...WebhookDeliveryFields } } ${webhookDeliveryFields}`,
    resultField: 'testWebhookEndpoint',
    // Queued: the worker sends it at once; the outcome is in the deliveries list.
    status: 202,
    variables: ({ params }) => ({ id: idParam(params.id) }),
  },
  {
    name: 'listWebhookDeliveries',
    method: 'GET',
    path: '/public/v2/webhooks/:id/deliveries',
    list: true,
    document: `query ($endpointId: Int!, $first: Int, $after: String) {
      webhookDeliveries(endpointId: $endpointId, first: $first, after: $after) { totalCount nodes { ...WebhookDeliveryFields } } } ${webhookDeliveryFields}`,
    resultField: 'webhookDeliveries',
    status: 200,
    variables: ({ params }) => ({ endpointId: idParam(params.id) }),
  },
  {
    name: 'redeliverWebhook',
    method: 'POST',
    path: '/public/v2/webhook_deliveries/:id/redeliver',
    longId: true,
    document: `mutation ($deliveryId: SafeInt!) { redeliverWebhook(deliveryId: $deliveryId) { ...WebhookDeliveryFields } } ${webhookDeliveryFields}`,
    resultField: 'redeliverWebhook',
    status: 202,
    variables: ({ params }) => ({ deliveryId: idParam(params.id, MAX_LONG_ID) }),
  },
];
