// The decision an approver takes on a request (an absence request, a punch correction, an overtime
// approval): which states it may be taken from, and what it records (the new state, the deciding
// API key, when, the comment), in the entities' shared `Decision` columns. What a decision does
// beyond that (days recomputed, punches created, periods locked) stays with each request's service.
import type { Decision } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import type { RequestContext } from '../../context/request-context';

export type DecisionVerb = 'approve' | 'reject' | 'cancel';

/** The state each decision leaves a request in. */
export const DECIDED_STATE = { approve: 'approved', reject: 'rejected', cancel: 'cancelled' } as const satisfies Record<DecisionVerb, string>;

/**
 * The states a decision may be taken from: a list (anything else is "Absence request 7 is
 * approved; it cannot be rejected."), or `changeable`: from any state but the one it asks for, so a
 * decision may be changed but not repeated ("Overtime approval 7 is already approved.").
 */
export type DecidableFrom = readonly string[] | 'changeable';

/** The API key acting (null for a principal that is not a workspace key). */
export const keyOf = (ctx: RequestContext) => (ctx.principal.kind === 'workspace' ? ctx.principal.keyId : null);

/** The employee acting for themself in self-service (null for any other principal). */
export const employeeActorOf = (ctx: RequestContext) => (ctx.principal.kind === 'employee' ? ctx.principal.employeeId : null);

/** The decision columns as events carry them (snake_case, ISO times), `state` apart. */
export function decisionData(decision: Decision): Record<string, unknown> {
  return {
    requested_by_key_id: decision.requestedByKeyId ?? null,
    decided_by_key_id: decision.decidedByKeyId ?? null,
    requested_by_employee_id: decision.requestedByEmployeeId ?? null,
    decided_by_employee_id: decision.decidedByEmployeeId ?? null,
    decided_at: decision.decidedAt ? new Date(decision.decidedAt).toISOString() : null,
    decision_comment: decision.decisionComment ?? null,
  };
}

/** A new request's decision: pending, filed by the acting key (or the employee themself). */
export const pendingDecision = (ctx: RequestContext): Decision => ({
  state: 'pending',
  requestedByKeyId: keyOf(ctx),
  requestedByEmployeeId: employeeActorOf(ctx),
});

/**
 * Refuses a decision on a request in a state it may not be taken from (`invalid_transition`);
 * `label` names the request in the message ("Punch correction 7"). Returns the state it is taken
 * from. Nothing is changed: the caller makes its own checks, then `recordDecision`.
 */
export function checkTransition(decision: Decision, verb: DecisionVerb, from: DecidableFrom, label: string): string {
  const state = decision.state;
  const target = DECIDED_STATE[verb];
  if (from === 'changeable') {
    if (state === target) throw new DomainError('invalid_transition', `${label} is already ${target}.`);
  } else if (!from.includes(state)) {
    throw new DomainError('invalid_transition', `${label} is ${state}; it cannot be ${target}.`);
  }
  return state;
}

/** Records the decision in place: its state, the acting key, now, the comment (the caller flushes). */
export function recordDecision(ctx: RequestContext, decision: Decision, verb: DecisionVerb, comment: string | null | undefined): void {
  decision.state = DECIDED_STATE[verb];
  decision.decidedByKeyId = keyOf(ctx);
  decision.decidedByEmployeeId = employeeActorOf(ctx);
  decision.decidedAt = ctx.now();
  decision.decisionComment = comment ?? null;
}
