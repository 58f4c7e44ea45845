// The bound on what one terminal can be asked to do at once (a flood of device actions must not bury a terminal): at most
// TIMEGATE_PENDING_ACTIONS_PER_DEVICE pending (queued, or sent and not past its answer's timeout) door actions, and separately as many
// device actions, per terminal. Beyond, a new one is refused with 429 `device_queue_full` and a
// `Retry-After` of the terminal's poll interval (by then it has taken some). Separate counts, so that
// a flood of device actions never blocks a door action (which the queue's lanes deliver first).
import { LOCK_SPACES } from '../../kernel/lock-keys';
import { DomainError } from '../../errors/domain-error';
import type { RequestContext } from '../../context/request-context';

/** Advisory-lock namespace of the per-device count (second key: the device id). */
const BOUND_LOCK_SPACE = LOCK_SPACES.pendingActions;

/**
 * Refuses one more pending action of this kind for the device, in the caller's transaction: the
 * device's lock is held until it commits, so concurrent creations cannot both take the last place.
 */
export async function requireRoomForAction(
  ctx: RequestContext,
  device: { id: number; pollIntervalSeconds?: number | null },
  what: 'door_action' | 'device_action',
): Promise<void> {
  const em = ctx.em;
  await em.execute('select pg_advisory_xact_lock(?, ?)', [BOUND_LOCK_SPACE, device.id]);
  // A door action delivered without an answer stays `sent` (`no_answer`) for good: it waits for nothing.
  const [row] = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from ${what} where device_id = ? and status in ('queued', 'sent') and not (status = 'sent' and status_detail is not distinct from 'no_answer')`,
    [device.id],
  );
  const limit = ctx.config.pendingActionsPerDevice;
  if (row!.n < limit) return;
  const retryAfter = Math.max(1, device.pollIntervalSeconds ?? ctx.config.attendanceDelaySeconds);
  const noun = what === 'door_action' ? 'door actions' : 'device actions';
  throw new DomainError(
    'device_queue_full',
    `This terminal already has ${row!.n} pending ${noun} (the limit is ${limit}); nothing was queued. Retry in ${retryAfter} s.`,
    [],
    retryAfter,
  );
}
