// A controller's door opening rules on its page, per door: first-person-in (inside a schedule the first
// member of the levels leaves the door open) or the two-person rule (the door opens once `count`
// members of the levels have verified). A door has one of them or none (the controller's first-card
// and multi-card modes exclude each other). Only the rules the controller enforces are offered; what
// was written and whether the controller accepted it is shown, and a refusal in the API's words.
import { useEffect, useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { ConfirmButton, ErrorNote, Section } from '../components';
import { when } from '../format';
import {
  ControllerOpeningRulesChoicesDocument,
  DoorOpeningRulesDocument,
  UpdateDoorOpeningRulesDocument,
  type ControllerOpeningRulesChoicesQuery,
  type DoorOpeningRulesInput,
} from '../gql';
import { problemText } from '../problems';

type Choices = ControllerOpeningRulesChoicesQuery;
type Door = Choices['deviceDoors'][number];
type Kind = 'first_person_in' | 'multi_person';
type Form = { kind: Kind; scheduleId: number; levelIds: number[]; count: number };

const DELIVERY: Record<string, string> = {
  none: 'never set',
  pending: 'waiting for the controller',
  applied: 'applied by the controller',
  failed: 'refused or unanswered by the controller',
};

function DoorOpening({ door, choices, canManage }: { door: Door; choices: Choices; canManage: boolean }) {
  const supports = choices.device.capabilities;
  const [read, refresh] = useQuery({ query: DoorOpeningRulesDocument, variables: { doorId: door.id }, requestPolicy: 'network-only' });
  const [saving, save] = useMutation(UpdateDoorOpeningRulesDocument);
  const [form, setForm] = useState<Form | null>(null);
  const rules = read.data?.doorOpeningRules;
  // Until the controller answers, the delivery is read again every second.
  useEffect(() => {
    if (rules?.deliveryStatus !== 'pending') return;
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), 1000);
    return () => clearInterval(timer);
  }, [rules?.deliveryStatus]);
  if (!rules) return <ErrorNote message={errorMessage(read.error)} />;
  const scheduleName = (id: number) => choices.accessSchedules.nodes.find((s) => s.id === id)?.name ?? `schedule #${id}`;
  const levelNames = (ids: readonly number[]) => ids.map((id) => choices.accessLevels.nodes.find((l) => l.id === id)?.name ?? `level #${id}`).join(', ');
  // Only levels that open this door may be named (the API refuses the others: door_not_in_level).
  const levels = choices.accessLevels.nodes.filter((l) => l.doorIds.includes(door.id));
  const editing: Form = form ?? {
    kind: rules.multiPerson || !supports.firstPersonIn ? 'multi_person' : 'first_person_in',
    scheduleId: rules.firstPersonIn?.scheduleId ?? choices.accessSchedules.nodes[0]?.id ?? 0,
    levelIds: rules.firstPersonIn?.accessLevelIds ?? rules.multiPerson?.accessLevelIds ?? [],
    count: rules.multiPerson?.count ?? 2,
  };
  const set = (change: Partial<Form>) => setForm({ ...editing, ...change });
  const write = async (input: DoorOpeningRulesInput) => {
    const result = await save({ doorId: door.id, input });
    if (result.data) {
      setForm(null);
      refresh({ requestPolicy: 'network-only' });
    }
  };
  const id = `opening-${door.id}`;
  return (
    <section class="door-opening" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{door.name}</h3>
      <dl class="facts">
        <dt>First-person-in</dt>
        <dd>
          {!supports.firstPersonIn
            ? 'not enforced by this controller'
            : rules.firstPersonIn
              ? `open during ${scheduleName(rules.firstPersonIn.scheduleId)} once a member of ${levelNames(rules.firstPersonIn.accessLevelIds)} has verified`
              : 'off'}
        </dd>
        <dt>Two-person rule</dt>
        <dd>
          {!supports.multiPerson
            ? 'not enforced by this controller'
            : rules.multiPerson
              ? `opens once ${rules.multiPerson.count} members of ${levelNames(rules.multiPerson.accessLevelIds)} have verified`
              : 'off'}
        </dd>
        <dt>On the controller</dt>
        <dd>
          <span role="status" aria-label={`${door.name} opening rules delivery`}>
            <span class={`badge badge-${rules.deliveryStatus === 'applied' ? 'succeeded' : rules.deliveryStatus}`}>
              {DELIVERY[rules.deliveryStatus] ?? rules.deliveryStatus}
            </span>
            {rules.deliveryReturnCode !== null && rules.deliveryReturnCode !== undefined && rules.deliveryStatus === 'failed' && (
              <span class="muted"> (code {rules.deliveryReturnCode})</span>
            )}
          </span>{' '}
          <span class="muted">
            Door{door.number}FirstCardOpenDoor={rules.firstCardValue}, Door{door.number}MultiCardOpenDoor={rules.multiCardValue}, {rules.firstCardRows}{' '}
            {rules.firstCardRows === 1 ? 'person' : 'people'} who may start first-person-in
            {rules.updatedAt ? `, set ${when(rules.updatedAt)}` : ''}
          </span>
        </dd>
      </dl>
      {canManage && (
        <form
          class="form"
          aria-label={`Change the opening rules of ${door.name}`}
          onSubmit={async (event) => {
            event.preventDefault();
            await write(
              editing.kind === 'first_person_in'
                ? { firstPersonIn: { scheduleId: editing.scheduleId, accessLevelIds: editing.levelIds }, multiPerson: null }
                : { firstPersonIn: null, multiPerson: { count: editing.count, accessLevelIds: editing.levelIds } },
            );
          }}
        >
          {supports.firstPersonIn && supports.multiPerson && (
            <fieldset>
              <legend>Rule</legend>
              <label class="check">
                <input type="radio" name={`${id}-kind`} checked={editing.kind === 'first_person_in'} onChange={() => set({ kind: 'first_person_in' })} />{' '}
                First-person-in: open during a schedule once a member has verified
              </label>
              <label class="check">
                <input type="radio" name={`${id}-kind`} checked={editing.kind === 'multi_person'} onChange={() => set({ kind: 'multi_person' })} /> Two-person
                rule: opens once several members have verified
              </label>
            </fieldset>
          )}
          {editing.kind === 'first_person_in' ? (
            <p class="field">
              <label for={`${id}-schedule`}>Open during</label>
              <select
                id={`${id}-schedule`}
                value={String(editing.scheduleId)}
                onChange={(e) => set({ scheduleId: Number((e.target as HTMLSelectElement).value) })}
              >
                {choices.accessSchedules.nodes.map((s) => (
                  <option value={String(s.id)}>{s.name}</option>
                ))}
              </select>
            </p>
          ) : (
            <p class="field">
              <label for={`${id}-count`}>People needed</label>
              <input
                id={`${id}-count`}
                type="number"
                min={2}
                max={5}
                value={editing.count}
                onInput={(e) => set({ count: Number((e.target as HTMLInputElement).value) })}
                required
              />
            </p>
          )}
          <fieldset>
            <legend>{editing.kind === 'first_person_in' ? 'Levels whose members may start it' : 'Levels whose members count'}</legend>
            {levels.length === 0 && <p class="muted">No access level opens this door yet.</p>}
            {levels.map((l) => (
              <label class="check">
                <input
                  type="checkbox"
                  checked={editing.levelIds.includes(l.id)}
                  onChange={() => set({ levelIds: editing.levelIds.includes(l.id) ? editing.levelIds.filter((x) => x !== l.id) : [...editing.levelIds, l.id] })}
                />{' '}
                {l.name}
              </label>
            ))}
          </fieldset>
          <p class="inline-form">
            <button type="submit" disabled={saving.fetching}>
              Save opening rule<span class="sr-only"> of {door.name}</span>
            </button>
            {form && (
              <button type="button" class="secondary" onClick={() => setForm(null)}>
                Discard changes<span class="sr-only"> to {door.name}</span>
              </button>
            )}
            {(rules.firstPersonIn || rules.multiPerson) && (
              <ConfirmButton
                label="Clear opening rule"
                labelDetail={`of ${door.name}`}
                title={`Clear the opening rule of ${door.name}?`}
                confirm="Clear rule"
                onConfirm={() => write({ firstPersonIn: null, multiPerson: null })}
              >
                <p>The door opens again for each valid verification on its own.</p>
              </ConfirmButton>
            )}
          </p>
          <ErrorNote message={problemText(saving.error)} />
        </form>
      )}
    </section>
  );
}

export function DoorOpeningRules({ deviceId, companyId }: { deviceId: number; companyId: number }) {
  const canManage = useAllowed('doors:manage');
  const [page] = useQuery({ query: ControllerOpeningRulesChoicesDocument, variables: { deviceId, companyId }, requestPolicy: 'network-only' });
  if (!page.data) return <ErrorNote message={errorMessage(page.error)} />;
  const supports = page.data.device.capabilities;
  const doors = page.data.deviceDoors.filter((d) => d.present);
  return (
    <Section title="Door opening rules">
      {!supports.firstPersonIn && !supports.multiPerson ? (
        <p class="muted">This terminal enforces neither first-person-in nor the two-person rule itself.</p>
      ) : (
        doors.map((door) => <DoorOpening door={door} choices={page.data!} canManage={canManage} />)
      )}
    </Section>
  );
}
