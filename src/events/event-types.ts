/** The event types a subscriber or a webhook endpoint can receive. */
export const EVENT_TYPES = [
  'attendance.created',
  'door.opened',
  'device.online',
  'device.offline',
  'door.action.updated',
  'attendance.day.updated',
  'door.alarm',
  'door.alarm.cleared',
  'access.denied',
  'device.action.updated',
  'device.clock_skew',
  'absence_request.updated',
  'punch_correction.updated',
  'overtime_approval.updated',
  'lockdown.updated',
  'linkage.triggered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent to one endpoint only, by `testWebhookEndpoint`; never fanned out nor offered to subscriptions. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * An event as the outbox stores it; `id` (bigint) is a decimal string, the cursor of `after`. Ids
 * grow within a workspace in delivery order but are not consecutive (see outbox.ts).
 */
export interface StoredEvent {
  id: string;
  workspaceId: number;
  type: string;
  /** snake_case fields, as webhooks send them. */
  data: Record<string, unknown>;
  createdAt: Date;
}

/** The public id of an event: the webhook `id` / `webhook-id` and the subscriptions' `eventId`. */
export const publicEventId = (id: string) => `evt_${id}`;

/** pg row -> StoredEvent. */
export function storedEvent(row: { id: string; workspace_id: number; type: string; data: Record<string, unknown>; created_at: Date }): StoredEvent {
  return { id: String(row.id), workspaceId: row.workspace_id, type: row.type, data: row.data, createdAt: new Date(row.created_at) };
}
