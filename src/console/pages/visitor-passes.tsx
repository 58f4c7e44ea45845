// Visitor passes: issue one (visitor, host, validity, doors, card; the pin the service generates is
// shown once issued), the passes of a company with their state, their uses (door events: admitted or
// refused and why) and revoke after confirming (the controllers delete the visitor at once).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section, personName } from '../components';
import { REASON_LABELS, denialReason, useDoorBoard, type BoardDoor } from '../door-board';
import { when } from '../format';
import {
  CompanyEmployeesDocument,
  CreateVisitorPassDocument,
  RevokeVisitorPassDocument,
  VisitorPassUsesDocument,
  VisitorPassesDocument,
  type VisitorPassesQuery,
} from '../gql';
import { problemText } from '../problems';

type Pass = VisitorPassesQuery['visitorPasses'][number];
type Person = { id: number; name: string; lastname: string; code: string };

/** A `datetime-local` value (the browser's zone) for an instant. */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

const STATE_LABELS: Record<string, string> = { scheduled: 'scheduled', active: 'active', ended: 'ended' };

function passState(p: Pass): { label: string; tone: string } {
  if (p.revokedAt) return { label: 'revoked', tone: 'failed' };
  return { label: STATE_LABELS[p.status] ?? p.status, tone: p.status === 'active' ? 'succeeded' : p.status === 'scheduled' ? 'pending' : 'none' };
}

function IssuePass({ companyId, people, doors, onIssued }: { companyId: number; people: Person[]; doors: BoardDoor[]; onIssued: (pass: Pass) => void }) {
  const [issuing, issue] = useMutation(CreateVisitorPassDocument);
  const blank = () => ({
    name: '',
    hostId: '',
    from: localInput(new Date()),
    until: localInput(new Date(Date.now() + 8 * 3600_000)),
    doorIds: [] as number[],
    cardNo: '',
    pin: '',
  });
  const [form, setForm] = useState(blank);
  const hostId = Number(form.hostId || people[0]?.id || 0);
  const set = (key: 'name' | 'from' | 'until' | 'cardNo' | 'pin' | 'hostId') => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const toggle = (id: number) => setForm({ ...form, doorIds: form.doorIds.includes(id) ? form.doorIds.filter((x) => x !== id) : [...form.doorIds, id] });
  return (
    <Section title="Issue a visitor pass">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await issue({
            input: {
              companyId,
              name: form.name.trim(),
              hostEmployeeId: hostId,
              validFrom: new Date(form.from).toISOString(),
              validUntil: new Date(form.until).toISOString(),
              doorIds: form.doorIds,
              cardNo: form.cardNo.trim() || null,
              pin: form.pin.trim() || null,
            },
          });
          if (result.data) {
            onIssued(result.data.createVisitorPass);
            setForm(blank());
          }
        }}
      >
        <p class="field">
          <label for="visitor-name">Visitor's name</label>
          <input id="visitor-name" value={form.name} onInput={set('name')} required maxLength={100} />
        </p>
        <p class="field">
          <label for="visitor-host">Host</label>
          <select id="visitor-host" value={String(hostId)} onChange={set('hostId')}>
            {people.map((e) => (
              <option value={e.id}>
                {personName(e)} ({e.code})
              </option>
            ))}
          </select>
        </p>
        <div class="inline-form">
          <p class="field">
            <label for="visitor-from">Valid from</label>
            <input id="visitor-from" type="datetime-local" value={form.from} onInput={set('from')} required />
          </p>
          <p class="field">
            <label for="visitor-until">Valid until</label>
            <input id="visitor-until" type="datetime-local" value={form.until} onInput={set('until')} required />
          </p>
        </div>
        <fieldset>
          <legend>Doors</legend>
          {doors.length === 0 ? (
            <p class="muted">This company has no access-control doors.</p>
          ) : (
            doors.map((d) => (
              <label class="check">
                <input type="checkbox" checked={form.doorIds.includes(d.id)} onChange={() => toggle(d.id)} /> {d.name} ({d.device.name})
              </label>
            ))
          )}
        </fieldset>
        <div class="inline-form">
          <p class="field">
            <label for="visitor-card">Card number (optional)</label>
            <input id="visitor-card" inputMode="numeric" pattern="[0-9]*" value={form.cardNo} onInput={set('cardNo')} />
          </p>
          <p class="field">
            <label for="visitor-pin">PIN (optional)</label>
            <input id="visitor-pin" inputMode="numeric" pattern="[0-9]*" value={form.pin} onInput={set('pin')} aria-describedby="visitor-pin-hint" />
          </p>
        </div>
        <p id="visitor-pin-hint" class="hint">
          Without a PIN the service draws one. Times are in this browser's zone; the controller refuses the pass outside them, also offline.
        </p>
        <button type="submit" disabled={issuing.fetching || form.doorIds.length === 0 || !hostId}>
          Issue pass
        </button>
        <ErrorNote message={problemText(issuing.error)} />
      </form>
    </Section>
  );
}

function PassUses({ pass, doorName }: { pass: Pass; doorName: (deviceId: number | null | undefined, door: number | null | undefined) => string }) {
  const [uses] = useQuery({ query: VisitorPassUsesDocument, variables: { id: pass.id }, requestPolicy: 'network-only' });
  const list = uses.data?.visitorPass.uses ?? [];
  return (
    <Section title={`Uses of ${pass.name}'s pass`}>
      <ErrorNote message={errorMessage(uses.error)} />
      {!uses.data ? (
        <p role="status">Loading its door events…</p>
      ) : list.length === 0 ? (
        <Empty>The pass was not used yet.</Empty>
      ) : (
        <table class="fold-on-phone">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Door</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            {list.map((u) => (
              <tr>
                <td>{u.localTime}</td>
                <td>{doorName(u.deviceId, u.door)}</td>
                <td>
                  {u.eventClass === 'denied'
                    ? `refused: ${REASON_LABELS[denialReason(u.eventCode)]}`
                    : u.opened
                      ? 'admitted'
                      : `${u.eventClass} event ${u.eventCode}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export function VisitorPasses() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('visitor-company');
  const [passes, refresh] = useQuery({ query: VisitorPassesDocument, variables: { companyId }, pause: !companyId, requestPolicy: 'network-only' });
  const [people] = useQuery({ query: CompanyEmployeesDocument, variables: { companyId }, pause: !companyId });
  const [revoking, revoke] = useMutation(RevokeVisitorPassDocument);
  const board = useDoorBoard(0);
  const [issued, setIssued] = useState<Pass | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const employees = people.data?.employees.nodes ?? [];
  const hostName = (id: number | null | undefined) => personName(employees.find((e) => e.id === id));
  const doorLabel = (id: number) => {
    const d = board.doors.find((x) => x.id === id);
    return d ? `${d.name} (${d.device.name})` : `door #${id}`;
  };
  const doorName = (deviceId: number | null | undefined, door: number | null | undefined) => {
    const d = board.doors.find((x) => x.deviceId === deviceId && x.number === door);
    return d ? `${d.name} (${d.device.name})` : `door ${door ?? '?'}`;
  };
  const list = passes.data?.visitorPasses ?? [];
  const chosen = list.find((p) => p.id === shown) ?? null;
  return (
    <div class="grid">
      <Section title="Visitor passes">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        {issued && (
          <p class="issued" role="status">
            Pass issued for <strong>{issued.name}</strong>: PIN <strong class="pin">{issued.pin}</strong>
            {issued.cardNo ? `, card ${issued.cardNo}` : ''}. Give the visitor the PIN (or the card); it works from {when(issued.validFrom)} to{' '}
            {when(issued.validUntil)}.
          </p>
        )}
        <ErrorNote message={errorMessage(passes.error) ?? problemText(revoking.error)} />
        {list.length === 0 ? (
          <Empty>No visitor passes in this company.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Visitor</th>
                <th scope="col">Host</th>
                <th scope="col">Valid</th>
                <th scope="col">Doors</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => {
                const state = passState(p);
                return (
                  <tr data-pass={p.id}>
                    <th scope="row">{p.name}</th>
                    <td data-label="Host">{hostName(p.hostEmployeeId)}</td>
                    <td data-label="Valid">
                      {when(p.validFrom)} – {when(p.validUntil)}
                    </td>
                    <td data-label="Doors">{p.doorIds.map(doorLabel).join(', ')}</td>
                    <td data-label="State">
                      <span class={`badge badge-${state.tone}`}>{state.label}</span>
                      <span class="muted"> PIN {p.pin}</span>
                    </td>
                    <td class="inline-form">
                      <button type="button" class="secondary" aria-pressed={shown === p.id} onClick={() => setShown(shown === p.id ? null : p.id)}>
                        Uses<span class="sr-only"> of {p.name}</span>
                      </button>
                      {canManage && p.status !== 'ended' && (
                        <ConfirmButton
                          label="Revoke"
                          labelDetail={`${p.name}'s pass`}
                          title={`Revoke ${p.name}'s pass?`}
                          confirm="Revoke pass"
                          onConfirm={async () => {
                            await revoke({ id: p.id });
                            if (issued?.id === p.id) setIssued(null);
                            reload();
                          }}
                        >
                          <p>
                            The pass ends now: its controllers delete the visitor (PIN {p.pin}) and refuse it from then on. A revoked pass cannot be restored;
                            issue a new one.
                          </p>
                        </ConfirmButton>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Section>
      {chosen && <PassUses key={chosen.id} pass={chosen} doorName={doorName} />}
      {canManage && companyId > 0 && (
        <IssuePass
          companyId={companyId}
          people={employees}
          doors={board.doors.filter((d) => d.device.companyId === companyId && d.present)}
          onIssued={(pass) => {
            setIssued(pass);
            reload();
          }}
        />
      )}
    </div>
  );
}
