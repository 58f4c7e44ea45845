/**
 * The one table of error codes. Services throw DomainError with one of these codes; GraphQL puts the
 * code in `extensions.code`; REST answers with the status given here. docs/errors.md lists the same
 * codes, and a test checks the two agree.
 */
export const errorCodes = {
  malformed_json: { status: 400, description: 'The request body is not valid JSON.' },
  unauthenticated: { status: 401, description: 'The API key is missing, unknown or revoked.' },
  forbidden: { status: 403, description: 'The API key is valid but lacks the scope this operation needs.' },
  insufficient_scope: {
    status: 403,
    description:
      'The key may run this operation, but not with this effect: what the request would do to a door (let someone through, open, hold open, evacuate or lock it down) needs another scope, which the message names.',
  },
  csrf_refused: {
    status: 403,
    description:
      'A console request signed in with the session cookie came without its CSRF token (the X-CSRF-Token header, or csrfToken in the WebSocket connection parameters) or with a wrong one.',
  },
  plan_limit_reached: { status: 403, description: "The workspace's plan does not allow more of this resource." },
  sandbox_only: {
    status: 403,
    description: 'The operation exists only in a sandbox workspace (a `tg_test_` key): virtual terminals and resets never touch a live workspace.',
  },
  mobile_punch_disabled: {
    status: 403,
    description: "The employee's company has not enabled punching from a phone (`mobile_punch` in its settings); nothing was stored.",
  },
  not_found: { status: 404, description: 'No such resource in this workspace (an id of another workspace is unknown here too).' },
  method_not_allowed: { status: 405, description: 'The path exists but not with this method; the Allow header lists the methods it has.' },
  idempotency_conflict: {
    status: 409,
    description: 'The Idempotency-Key was already used with a different request, or that request is still running.',
  },
  period_locked: { status: 409, description: 'The pay period is locked (payroll was run); an admin must unlock it before it or its days change.' },
  invalid_transition: {
    status: 409,
    description:
      'The request is no longer in a state that allows this decision (an absence request or punch correction already approved, rejected or cancelled; an overtime approval already in the state the decision asks for).',
  },
  lockdown_active: {
    status: 409,
    description:
      'The door is in an active lockdown (or evacuation): a remote command that would undo it, or a second lockdown of it, waits for the release; an `admin` key may override a remote unlock.',
  },
  resource_in_use: { status: 409, description: 'The resource cannot be deleted while other resources depend on it.' },
  payload_too_large: { status: 413, description: 'The request body is larger than the limit.' },
  unsupported_media_type: {
    status: 415,
    description: 'A write request must send Content-Type: application/json (an employee photo: image/jpeg or image/png).',
  },
  validation_failed: {
    status: 422,
    description: 'One or more fields are invalid, missing, unknown or not unique; `details` names each field.',
  },
  unknown_parameter: {
    status: 422,
    description:
      'A REST query parameter the route does not take (a misspelt filter would otherwise be ignored and return everything); `details` names each one and the message lists the parameters the route takes.',
  },
  insufficient_balance: {
    status: 422,
    description:
      "The absence request takes more than remains of the employee's allowance for the type in that year (pending requests included); the message gives the balance.",
  },
  outside_geofence: {
    status: 422,
    description:
      'A phone punch from outside every geofence that applies to the employee (or none applies); `distance_m` and `geofence_id` name the nearest fence. Nothing was stored.',
  },
  location_inaccurate: {
    status: 422,
    description:
      "A phone punch whose position is less accurate than the company's limit (`accuracy_m` above `max_accuracy_m`, 100 m unless the company set another); nothing was stored.",
  },
  offline_punch_too_old: {
    status: 422,
    description: 'A punch the phone kept while offline arrived more than 72 hours after it was made (or dated in the future); nothing was stored.',
  },
  query_too_complex: {
    status: 400,
    description:
      'The GraphQL operation is deeper or costlier than the limits allow (or its document nests braces, brackets and parentheses more than 128 levels deep); ask for fewer items or levels.',
  },
  nesting_too_deep: {
    status: 400,
    description:
      'The JSON body (REST, SCIM, POST /graphql) or the GraphQL variables nest objects and arrays more than 32 levels deep; refused before anything reads them.',
  },
  csrf_prevented: {
    status: 400,
    description:
      'A GET to /graphql without a preflight header (`apollo-require-preflight` or `x-apollo-operation-name`) or a JSON Content-Type, which a page on another site could send.',
  },
  unsupported_operation: { status: 400, description: 'A subscription sent over HTTP; subscriptions run over WebSocket (graphql-ws) on /graphql.' },
  subscriber_too_slow: {
    status: 409,
    description:
      'Subscriptions only: the client took events more slowly than they came and fell 10,000 behind; the subscription ended, resume it with `after`.',
  },
  rate_limited: { status: 429, description: 'Too many requests for this key; retry after the Retry-After seconds.' },
  device_queue_full: {
    status: 429,
    description:
      'The terminal already has as many pending door actions (or device actions) as allowed (TIMEGATE_PENDING_ACTIONS_PER_DEVICE); nothing was queued. Retry after the Retry-After seconds.',
  },
  computation_budget_exceeded: {
    status: 503,
    description:
      'A timesheet or summary needed more days computed than one request may compute; the days computed are kept: retry after Retry-After to continue, or ask for a shorter range or fewer employees.',
  },
  service_unavailable: {
    status: 503,
    description:
      'The database is unavailable for a moment (restart, failover), or a concurrent change kept conflicting with this one (a deadlock, retried in vain); nothing was changed. Retry after the Retry-After seconds.',
  },
  internal_error: { status: 500, description: 'An unexpected error; the request id identifies it in the logs.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCodes;

export function statusOf(code: string): number {
  return (errorCodes as Record<string, { status: number }>)[code]?.status ?? 500;
}
