// A controller's door rules on its page: anti-passback (per door between its in and out readers, or
// between doors) and interlock groups, as the controller enforces them itself; what it was sent and
// whether it accepted it. Only the rules the controller's family and door count support are offered;
// a combination its parameter list lacks is refused by the API with the combinations it takes.
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ErrorNote, Section } from '../components';
import { when } from '../format';
import { ControllerDoorRulesDocument, UpdateDoorRulesDocument, type ControllerDoorRulesQuery, type DeviceDoorRulesInput } from '../gql';
import { problemText } from '../problems';

type Rules = ControllerDoorRulesQuery['deviceDoorRules'];
type Door = ControllerDoorRulesQuery['deviceDoors'][number];
type Pair = { entry: number[]; exit: number[] };
type Form = { apType: 'off' | 'in_out' | 'between_doors'; apDoors: number[]; pairs: Pair[]; groups: number[][] };

const DELIVERY: Record<string, string> = {
  none: 'never set',
  pending: 'waiting for the controller',
  applied: 'applied by the controller',
  failed: 'refused or unanswered by the controller',
};

function formOf(rules: Rules): Form {
  const ap = rules.antiPassback;
  return {
    apType: (ap?.type as Form['apType']) ?? 'off',
    apDoors: ap?.doorIds ?? [],
    pairs: ap?.pairs?.map((p) => ({ entry: p.entryDoorIds, exit: p.exitDoorIds })) ?? [{ entry: [], exit: [] }],
    groups: rules.interlock?.groups ?? [[]],
  };
}

function describe(rules: Rules, name: (id: number) => string): { antiPassback: string; interlock: string } {
  const ap = rules.antiPassback;
  const list = (ids: readonly number[]) => ids.map(name).join(', ');
  return {
    antiPassback: !ap
      ? 'off'
      : ap.type === 'in_out'
        ? `in and out readers of ${list(ap.doorIds ?? [])} (hard)`
        : `between doors: ${(ap.pairs ?? []).map((p) => `${list(p.entryDoorIds)} ⇄ ${list(p.exitDoorIds)}`).join('; ')} (hard)`,
    interlock: rules.interlock ? rules.interlock.groups.map((g) => g.map(name).join(' + ')).join('; ') : 'none',
  };
}

/** Door checkboxes for one set of doors of the rule. */
function DoorChoice({ legend, doors, chosen, onChange }: { legend: string; doors: Door[]; chosen: number[]; onChange: (ids: number[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {doors.map((d) => (
        <label class="check">
          <input
            type="checkbox"
            checked={chosen.includes(d.id)}
            onChange={() => onChange(chosen.includes(d.id) ? chosen.filter((x) => x !== d.id) : [...chosen, d.id])}
          />{' '}
          {d.name}
        </label>
      ))}
    </fieldset>
  );
}

export function DoorRules({ deviceId }: { deviceId: number }) {
  const canManage = useAllowed('doors:manage');
  const [page, refresh] = useQuery({ query: ControllerDoorRulesDocument, variables: { deviceId }, requestPolicy: 'network-only' });
  const [saving, save] = useMutation(UpdateDoorRulesDocument);
  const [form, setForm] = useState<Form | null>(null);
  const rules = page.data?.deviceDoorRules;
  // Until the controller answers, the delivery is read again every second.
  useEffect(() => {
    if (rules?.deliveryStatus !== 'pending') return;
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), 1000);
    return () => clearInterval(timer);
  }, [rules?.deliveryStatus]);
  if (!page.data || !rules) return <ErrorNote message={errorMessage(page.error)} />;
  const { device } = page.data;
  const doors = page.data.deviceDoors.filter((d) => d.present);
  const name = (id: number) => page.data!.deviceDoors.find((d) => d.id === id)?.name ?? `door #${id}`;
  const supports = device.capabilities;
  const now = describe(rules, name);
  const editing = form ?? formOf(rules);
  const set = (change: Partial<Form>) => setForm({ ...editing, ...change });
  const input = (): DeviceDoorRulesInput => {
    const groups = editing.groups.filter((g) => g.length > 0);
    return {
      antiPassback:
        editing.apType === 'off'
          ? null
          : editing.apType === 'in_out'
            ? { type: 'in_out', doorIds: editing.apDoors }
            : { type: 'between_doors', pairs: editing.pairs.map((p) => ({ entryDoorIds: p.entry, exitDoorIds: p.exit })) },
      interlock: groups.length > 0 ? { groups } : null,
    };
  };
  if (!supports.antiPassback && !supports.interlock)
    return (
      <Section title="Door rules">
        <p class="muted">
          This terminal enforces neither anti-passback nor interlock itself (
          {device.modeType === 'acc' ? 'its door count has no documented parameter list' : 'an attendance terminal has no such parameter'}).
        </p>
      </Section>
    );
  return (
    <Section title="Door rules">
      <dl class="facts">
        <dt>Anti-passback</dt>
        <dd>{supports.antiPassback ? now.antiPassback : 'not enforced by this controller'}</dd>
        <dt>Interlock</dt>
        <dd>{supports.interlock ? now.interlock : 'not enforced by this controller'}</dd>
        <dt>On the controller</dt>
        <dd>
          <span role="status" aria-label="Door rules delivery">
            <span class={`badge badge-${rules.deliveryStatus === 'applied' ? 'succeeded' : rules.deliveryStatus}`}>
              {DELIVERY[rules.deliveryStatus] ?? rules.deliveryStatus}
            </span>
            {rules.deliveryReturnCode !== null && rules.deliveryReturnCode !== undefined && rules.deliveryStatus === 'failed' && (
              <span class="muted"> (code {rules.deliveryReturnCode})</span>
            )}
          </span>{' '}
          <span class="muted">
            AntiPassback={rules.antiPassbackValue}, InterLock={rules.interlockValue}
            {rules.updatedAt ? `, set ${when(rules.updatedAt)}` : ''}
          </span>
        </dd>
      </dl>
      {canManage && (
        <form
          class="form"
          aria-label="Change the door rules"
          onSubmit={async (event) => {
            event.preventDefault();
            const result = await save({ deviceId, input: input() });
            if (result.data) {
              setForm(null);
              refresh({ requestPolicy: 'network-only' });
            }
          }}
        >
          {supports.antiPassback && (
            <fieldset>
              <legend>Anti-passback</legend>
              <label class="check">
                <input type="radio" name={`ap-${deviceId}`} checked={editing.apType === 'off'} onChange={() => set({ apType: 'off' })} /> Off
              </label>
              <label class="check">
                <input type="radio" name={`ap-${deviceId}`} checked={editing.apType === 'in_out'} onChange={() => set({ apType: 'in_out' })} /> Per door: in and
                out readers alternate
              </label>
              {doors.length > 1 && (
                <label class="check">
                  <input type="radio" name={`ap-${deviceId}`} checked={editing.apType === 'between_doors'} onChange={() => set({ apType: 'between_doors' })} />{' '}
                  Between doors: entry and exit doors alternate
                </label>
              )}
              {editing.apType === 'in_out' && (
                <DoorChoice legend="Doors whose readers alternate" doors={doors} chosen={editing.apDoors} onChange={(apDoors) => set({ apDoors })} />
              )}
              {editing.apType === 'between_doors' &&
                editing.pairs.map((p, i) => (
                  <div class="inline-form">
                    <DoorChoice
                      legend={`Pair ${i + 1}: entry doors`}
                      doors={doors}
                      chosen={p.entry}
                      onChange={(entry) => set({ pairs: editing.pairs.map((x, j) => (j === i ? { ...x, entry } : x)) })}
                    />
                    <DoorChoice
                      legend={`Pair ${i + 1}: exit doors`}
                      doors={doors}
                      chosen={p.exit}
                      onChange={(exit) => set({ pairs: editing.pairs.map((x, j) => (j === i ? { ...x, exit } : x)) })}
                    />
                  </div>
                ))}
              {editing.apType === 'between_doors' && doors.length > 2 && (
                <button type="button" class="secondary" onClick={() => set({ pairs: [...editing.pairs, { entry: [], exit: [] }] })}>
                  Add a pair
                </button>
              )}
              <p class="hint">
                Controllers refuse a second passage in the same direction until the opposite one; they have no soft (log only) mode and no daily reset.
              </p>
            </fieldset>
          )}
          {supports.interlock && (
            <fieldset>
              <legend>Interlock</legend>
              {editing.groups.map((g, i) => (
                <DoorChoice
                  legend={`Group ${i + 1}: one door open at a time`}
                  doors={doors}
                  chosen={g}
                  onChange={(ids) => set({ groups: editing.groups.map((x, j) => (j === i ? ids : x)) })}
                />
              ))}
              {doors.length > 3 && (
                <button type="button" class="secondary" onClick={() => set({ groups: [...editing.groups, []] })}>
                  Add a group
                </button>
              )}
              <p class="hint">No door checked: no interlock.</p>
            </fieldset>
          )}
          <p class="inline-form">
            <button type="submit" disabled={saving.fetching}>
              Save door rules
            </button>
            {form && (
              <button type="button" class="secondary" onClick={() => setForm(null)}>
                Discard changes
              </button>
            )}
          </p>
          <ErrorNote message={problemText(saving.error)} />
        </form>
      )}
    </Section>
  );
}
