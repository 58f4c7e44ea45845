// Lockdown and evacuation: lock down (or evacuate) every door of a company, the doors of an area or
// chosen doors, with a reason, after a confirmation; each door's progress (waiting for its
// controller, confirmed, failed and why) follows the `lockdownUpdated` subscription as the
// controllers answer; release after a confirmation; the lockdowns of the past below.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery, useSubscription } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { useDoorBoard, type BoardDoor } from '../door-board';
import { DoorChecks, doorOptions } from '../entity-form';
import { when } from '../format';
import {
  CompaniesDocument,
  CreateLockdownDocument,
  LockdownFeedDocument,
  LockdownsDocument,
  ReleaseLockdownDocument,
  SecurityAreasDocument,
  type LockdownFeedSubscription,
  type LockdownsQuery,
} from '../gql';
import { DOOR_STATE_LABELS, MODE_LABELS, doorStateTone, failureReason } from '../lockdown-state';

type Lockdown = LockdownsQuery['lockdowns']['nodes'][number];
type Update = LockdownFeedSubscription['lockdownUpdated']['lockdown'];
type Area = { id: number; name: string; deviceIds: number[] };

/** A lockdown as one event of the subscription leaves it: its counts, its status and the door that changed. */
function applyUpdate(lockdown: Lockdown, u: Update): Lockdown {
  const doors = u.door
    ? lockdown.doors.map((d) =>
        d.doorId === u.door!.doorId
          ? { ...d, state: u.door!.state, detail: u.door!.detail, returnCode: u.door!.returnCode, confirmedAt: u.door!.confirmedAt ?? d.confirmedAt }
          : d,
      )
    : lockdown.doors;
  return {
    ...lockdown,
    status: u.status,
    releasedAt: u.releasedAt ?? lockdown.releasedAt,
    doorsPending: u.doorsPending,
    doorsConfirmed: u.doorsConfirmed,
    doorsFailed: u.doorsFailed,
    doors,
  };
}

function scopeLabel(l: Lockdown, companyName: string, areas: Area[]): string {
  if (l.scope === 'company') return `every door of ${companyName}`;
  if (l.scope === 'area') return `the doors of area ${areas.find((a) => a.id === l.areaId)?.name ?? '(deleted)'}`;
  return l.doors.length === 1 ? '1 chosen door' : `${l.doors.length} chosen doors`;
}

function progressText(l: Lockdown): string {
  const total = l.doors.length;
  const done = l.status === 'active' ? 'confirmed' : 'released';
  const parts = [`${l.doorsConfirmed} of ${total} doors ${done}`];
  if (l.doorsPending > 0) parts.push(`${l.doorsPending} waiting`);
  if (l.doorsFailed > 0) parts.push(`${l.doorsFailed} failed`);
  return parts.join(', ');
}

function LockdownDoors({ lockdown, doorName }: { lockdown: Lockdown; doorName: (id: number) => { door: string; controller: string } }) {
  return (
    <table class="fold-on-phone">
      <thead>
        <tr>
          <th scope="col">Door</th>
          <th scope="col">Controller</th>
          <th scope="col">State</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {lockdown.doors.map((d) => {
          const name = doorName(d.doorId);
          return (
            <tr data-door={d.doorId}>
              <th scope="row">{name.door}</th>
              <td>{name.controller}</td>
              <td data-label="State">
                <span class={`badge badge-${doorStateTone(d.state)}`}>{DOOR_STATE_LABELS[d.state] ?? d.state}</span>
                {d.confirmedAt && d.state === 'confirmed' && <span class="muted"> at {when(d.confirmedAt)}</span>}
              </td>
              <td data-label="Why">{failureReason(d.detail, d.returnCode) || '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function NewLockdown({
  companyId,
  companyName,
  doors,
  areas,
  onStarted,
}: {
  companyId: number;
  companyName: string;
  doors: BoardDoor[];
  areas: Area[];
  onStarted: (lockdown: Lockdown) => void;
}) {
  const [starting, start] = useMutation(CreateLockdownDocument);
  const [form, setForm] = useState({ mode: 'lockdown', scope: 'company', areaId: '', doorIds: [] as number[], reason: '' });
  const areaId = Number(form.areaId || areas[0]?.id || 0);
  const area = areas.find((a) => a.id === areaId);
  const present = doors.filter((d) => d.present);
  const chosen =
    form.scope === 'company'
      ? present
      : form.scope === 'area'
        ? present.filter((d) => area?.deviceIds.includes(d.deviceId))
        : present.filter((d) => form.doorIds.includes(d.id));
  const what = form.scope === 'company' ? `every door of ${companyName}` : form.scope === 'area' ? `the doors of area ${area?.name ?? ''}` : 'the chosen doors';
  const verb = form.mode === 'lockdown' ? 'Lock down' : 'Evacuate';
  const ready = form.reason.trim().length > 0 && chosen.length > 0;
  const run = async () => {
    const scope = form.scope === 'company' ? { companyId } : form.scope === 'area' ? { areaId } : { doorIds: form.doorIds };
    const result = await start({ input: { ...scope, mode: form.mode, reason: form.reason.trim() } });
    if (result.data) {
      setForm({ ...form, reason: '', doorIds: [] });
      onStarted(result.data.createLockdown);
    }
  };
  return (
    <Section title="Lock down or evacuate">
      <form class="form" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend>What the doors do</legend>
          <label class="check">
            <input type="radio" name="lockdown-mode" checked={form.mode === 'lockdown'} onChange={() => setForm({ ...form, mode: 'lockdown' })} /> Lock down:
            locked, every credential refused
          </label>
          <label class="check">
            <input type="radio" name="lockdown-mode" checked={form.mode === 'evacuate'} onChange={() => setForm({ ...form, mode: 'evacuate' })} /> Evacuate:
            released and held open
          </label>
        </fieldset>
        <fieldset>
          <legend>Which doors</legend>
          <label class="check">
            <input type="radio" name="lockdown-scope" checked={form.scope === 'company'} onChange={() => setForm({ ...form, scope: 'company' })} /> Every door
            of the company
          </label>
          <label class="check">
            <input
              type="radio"
              name="lockdown-scope"
              checked={form.scope === 'area'}
              disabled={areas.length === 0}
              onChange={() => setForm({ ...form, scope: 'area' })}
            />{' '}
            The doors of an area
          </label>
          <label class="check">
            <input type="radio" name="lockdown-scope" checked={form.scope === 'doors'} onChange={() => setForm({ ...form, scope: 'doors' })} /> Chosen doors
          </label>
        </fieldset>
        {form.scope === 'area' && (
          <p class="field">
            <label for="lockdown-area">Area</label>
            <select id="lockdown-area" value={String(areaId)} onChange={(e) => setForm({ ...form, areaId: (e.target as HTMLSelectElement).value })}>
              {areas.map((a) => (
                <option value={a.id}>{a.name}</option>
              ))}
            </select>
          </p>
        )}
        {form.scope === 'doors' && (
          <DoorChecks
            id="lockdown-doors"
            legend="Doors"
            doors={doorOptions(present, areas)}
            empty="This company has no doors."
            chosen={form.doorIds}
            onChange={(doorIds) => setForm({ ...form, doorIds })}
          />
        )}
        <p class="field">
          <label for="lockdown-reason">Reason</label>
          <input
            id="lockdown-reason"
            maxLength={500}
            value={form.reason}
            onInput={(e) => setForm({ ...form, reason: (e.target as HTMLInputElement).value })}
            aria-describedby="lockdown-ready"
            required
          />
        </p>
        <p id="lockdown-ready" class="hint">
          {chosen.length === 0
            ? 'No door in this scope.'
            : `${chosen.length} door${chosen.length === 1 ? '' : 's'} on ${new Set(chosen.map((d) => d.deviceId)).size} controller(s).`}
          {form.reason.trim() ? '' : ' A reason is needed (it is kept with the lockdown).'}
        </p>
        <ConfirmButton label={verb} title={`${verb} ${what}?`} confirm={`${verb} now`} disabled={!ready || starting.fetching} onConfirm={run}>
          <p>
            {form.mode === 'lockdown'
              ? `${chosen.length} door(s) are locked and refuse every credential until the lockdown is released. Remote opening is refused too.`
              : `${chosen.length} door(s) are released and held open, for anyone, until the evacuation is released.`}
          </p>
          <p>
            Reason: <strong>{form.reason.trim()}</strong>
          </p>
        </ConfirmButton>
        <ErrorNote message={errorMessage(starting.error)} />
      </form>
    </Section>
  );
}

export function Lockdowns() {
  const canStart = useAllowed('doors:unlock');
  const { companyId, picker } = useCompanyPicker('lockdown-company');
  const [companies] = useQuery({ query: CompaniesDocument });
  const [listed, refresh] = useQuery({ query: LockdownsDocument, variables: { companyId }, pause: !companyId, requestPolicy: 'network-only' });
  const [areasResult] = useQuery({ query: SecurityAreasDocument, variables: { companyId }, pause: !companyId });
  const [releasing, release] = useMutation(ReleaseLockdownDocument);
  const board = useDoorBoard(0);
  const [lockdowns, setLockdowns] = useState<Lockdown[]>([]);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  useEffect(() => setLockdowns(listed.data?.lockdowns.nodes ?? []), [listed.data]);
  // Each event changes the lockdown in place at once (the door that answered, the counts); the list
  // is then read again once the events pause, so a lockdown started elsewhere appears and an event
  // that crossed a read is not lost.
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(due.current ?? undefined), []);
  useSubscription({ query: LockdownFeedDocument, variables: { companyId }, pause: !companyId }, (_, event) => {
    const u = event.lockdownUpdated.lockdown;
    setLockdowns((list) => list.map((l) => (l.id === u.lockdownId ? applyUpdate(l, u) : l)));
    if (due.current) clearTimeout(due.current);
    due.current = setTimeout(() => {
      due.current = null;
      reload();
    }, 300);
    return event;
  });
  const companyName = companies.data?.companies.nodes.find((c) => c.id === companyId)?.name ?? 'the company';
  const areas = areasResult.data?.areas.nodes ?? [];
  const doorName = (id: number) => {
    const d = board.doors.find((x) => x.id === id);
    return d ? { door: d.name, controller: d.device.name } : { door: `door #${id}`, controller: '—' };
  };
  const active = lockdowns.filter((l) => l.status === 'active');
  const past = lockdowns.filter((l) => l.status !== 'active');
  return (
    <div class="stack">
      <Section title="Active lockdowns">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(listed.error ?? releasing.error)} />
        {!listed.data ? (
          <p role="status">Loading the lockdowns…</p>
        ) : active.length === 0 ? (
          <Empty>No door of {companyName} is locked down or held open for an evacuation.</Empty>
        ) : (
          active.map((l) => {
            const title = `${MODE_LABELS[l.mode] ?? l.mode} of ${scopeLabel(l, companyName, areas)}`;
            return (
              <article class="lockdown" aria-label={`${title}: ${l.reason}`} data-lockdown={l.id}>
                <h3>{title}</h3>
                <p>
                  Reason: <strong>{l.reason}</strong> <span class="muted">· started {when(l.createdAt)}</span>
                </p>
                <p class="lockdown-progress">
                  <progress max={l.doors.length} value={l.doorsConfirmed} aria-label={`Doors confirmed of ${title}`} />{' '}
                  <span role="status">{progressText(l)}</span>
                </p>
                <LockdownDoors lockdown={l} doorName={doorName} />
                {canStart && (
                  <p>
                    <ConfirmButton
                      label="Release"
                      labelDetail={title}
                      title={`Release the ${(MODE_LABELS[l.mode] ?? l.mode).toLowerCase()} of ${scopeLabel(l, companyName, areas)}?`}
                      confirm="Release now"
                      onConfirm={async () => {
                        const result = await release({ id: l.id });
                        if (result.data) setLockdowns((list) => list.map((x) => (x.id === l.id ? result.data!.releaseLockdown : x)));
                      }}
                    >
                      <p>
                        {l.mode === 'lockdown'
                          ? 'Each door is unlocked and follows its schedules and access levels again.'
                          : 'Each door held open is closed and follows its schedules and access levels again.'}
                      </p>
                    </ConfirmButton>
                  </p>
                )}
              </article>
            );
          })
        )}
      </Section>
      {canStart && companyId > 0 && (
        <NewLockdown
          companyId={companyId}
          companyName={companyName}
          doors={board.doors.filter((d) => d.device.companyId === companyId)}
          areas={areas}
          onStarted={(started) => {
            setLockdowns((list) => [started, ...list.filter((l) => l.id !== started.id)]);
            reload();
          }}
        />
      )}
      <Section title="Past lockdowns">
        {past.length === 0 ? (
          <Empty>No lockdown was released yet.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Reason</th>
                <th scope="col">Started</th>
                <th scope="col">Released</th>
                <th scope="col">Doors</th>
              </tr>
            </thead>
            <tbody>
              {past.map((l) => (
                <tr data-lockdown={l.id}>
                  <th scope="row">
                    {MODE_LABELS[l.mode] ?? l.mode} of {scopeLabel(l, companyName, areas)}
                  </th>
                  <td>{l.reason}</td>
                  <td data-label="Started">{when(l.createdAt)}</td>
                  <td data-label="Released">{when(l.releasedAt)}</td>
                  <td data-label="Doors">{progressText(l)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
