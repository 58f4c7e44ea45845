import type { EntityManager } from '@mikro-orm/postgresql';
import { VerificationState } from '../../entities';
import { DomainError } from '../../errors/domain-error';
import { workspaceOf, type RequestContext } from '../../context/request-context';
import type { Page, PageRequest } from '../common/pagination';
import { uniqueViolationToDomainError } from '../common/unique-violation';
import { FieldChecker, limits } from '../common/validation';

export interface VerificationStateInput {
  name?: string | null;
  value?: string | null;
}

/** The terminal defaults (ZK's usual state keys), seeded into every new workspace. */
export const DEFAULT_VERIFICATION_STATES: readonly { value: string; name: string }[] = [
  { value: '0', name: 'Check-In' },
  { value: '1', name: 'Check-Out' },
  { value: '2', name: 'Break-Out' },
  { value: '3', name: 'Break-In' },
  { value: '4', name: 'Overtime-In' },
  { value: '5', name: 'Overtime-Out' },
];

export const MAX_STATE_VALUE = 255;

// Canonical decimal only: "01" and "1" would otherwise be two states for one terminal number.
const VALUE = /^(0|[1-9]\d{0,2})$/;

const VALUE_TAKEN = 'Another verification state of this workspace already has this value.';
const uniqueFields = { verification_state_workspace_value_unique: { field: 'value', message: VALUE_TAKEN } };

function checkState(input: VerificationStateInput, creating: boolean): void {
  const check = new FieldChecker();
  check.text('name', input.name, { max: limits.stateName, required: creating || input.name !== undefined });
  if (input.value == null) {
    if (creating || input.value !== undefined) check.add('value', 'required', 'value is required.');
  } else if (!VALUE.test(input.value) || Number(input.value) > MAX_STATE_VALUE) {
    check.add(
      'value',
      'invalid_state_value',
      `value must be a whole number from 0 to ${MAX_STATE_VALUE} written without leading zeros (terminals send the state as a small number, e.g. "0" for check-in).`,
    );
  }
  check.done();
}

/** Seeds the default states of a new workspace, inside the caller's transaction. */
export async function seedDefaultVerificationStates(em: EntityManager, workspaceId: number): Promise<void> {
  for (const state of DEFAULT_VERIFICATION_STATES) em.persist(em.create(VerificationState, { workspaceId, ...state } as VerificationState));
  await em.flush();
}

export async function getVerificationState(ctx: RequestContext, id: number): Promise<VerificationState> {
  const state = await ctx.em.findOne(VerificationState, { id, workspaceId: workspaceOf(ctx) });
  if (!state) throw DomainError.notFound('VerificationState', id);
  return state;
}

export async function listVerificationStates(ctx: RequestContext, page: PageRequest): Promise<Page<VerificationState>> {
  const [items, totalCount] = await ctx.em.findAndCount(
    VerificationState,
    { workspaceId: workspaceOf(ctx) },
    { orderBy: { id: 'asc' }, offset: page.offset, limit: page.limit },
  );
  return { items, totalCount, offset: page.offset };
}

/** Whether `value` names a verification state of the caller's workspace. */
/** Whether `value` is a state of the caller's workspace (or of `workspaceId`, which a caller that has decided the scope passes). */
export async function verificationStateExists(ctx: RequestContext, value: string, workspaceId?: number): Promise<boolean> {
  return (await ctx.em.count(VerificationState, { workspaceId: workspaceId ?? workspaceOf(ctx), value })) > 0;
}

async function ensureValueFree(ctx: RequestContext, value: string, exceptId?: number): Promise<void> {
  const other = await ctx.em.findOne(VerificationState, { workspaceId: workspaceOf(ctx), value });
  if (other && other.id !== exceptId) throw DomainError.field('value', 'already_taken', VALUE_TAKEN);
}

export async function createVerificationState(ctx: RequestContext, input: VerificationStateInput): Promise<VerificationState> {
  checkState(input, true);
  await ensureValueFree(ctx, input.value!);
  const state = ctx.em.create(VerificationState, { workspaceId: workspaceOf(ctx), name: input.name!, value: input.value! } as VerificationState);
  try {
    await ctx.em.persist(state).flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return state;
}

export async function updateVerificationState(ctx: RequestContext, id: number, input: VerificationStateInput): Promise<VerificationState> {
  checkState(input, false);
  const state = await getVerificationState(ctx, id);
  if (input.value != null && input.value !== state.value) await ensureValueFree(ctx, input.value, id);
  if (input.name != null) state.name = input.name;
  if (input.value != null) state.value = input.value;
  try {
    await ctx.em.flush();
  } catch (error) {
    throw uniqueViolationToDomainError(error, uniqueFields);
  }
  return state;
}

/**
 * Deleting a state only removes its label: punches store the raw value, so they keep it and still
 * list; only new manual punches can no longer use that value.
 */
export async function deleteVerificationState(ctx: RequestContext, id: number): Promise<VerificationState> {
  const state = await getVerificationState(ctx, id);
  const snapshot = { ...state };
  await ctx.em.remove(state).flush();
  return Object.assign(new VerificationState(), snapshot);
}
