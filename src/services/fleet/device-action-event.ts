// The `device.action.updated` event of a device action, for every path that changes one (the
// action service, and the users.reconcile result written by the sync capability).
import type { NewEvent } from '../../events/outbox';
import { camelToSnake, renameTopKeys } from '../../kernel/case';

/** Top-level keys in REST spelling (`startDate` -> `start_date`), as event payloads use. */
const snakeKeys = (value: unknown): unknown => renameTopKeys(value, camelToSnake);

export function deviceActionEvent(action: {
  workspace_id: number;
  action_id: string;
  device_id: number;
  company_id: number;
  type: string;
  options: unknown;
  status: string;
  status_detail: string | null;
  result: unknown;
  created_at: Date | string;
  completed_at: Date | string | null;
  expires_at: Date | string;
}): NewEvent {
  const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());
  return {
    workspaceId: action.workspace_id,
    type: 'device.action.updated',
    data: {
      action_id: action.action_id,
      device_id: action.device_id,
      company_id: action.company_id,
      type: action.type,
      options: snakeKeys(action.options),
      status: action.status,
      status_detail: action.status_detail,
      result: snakeKeys(action.result),
      created_at: iso(action.created_at),
      completed_at: iso(action.completed_at),
      expires_at: iso(action.expires_at),
    },
  };
}
