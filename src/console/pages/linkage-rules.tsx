// Linkage rules: when a controller (or one of its doors) reports a forced opening, a door held open,
// a duress verification or N refusals within M minutes, the service starts a lockdown or evacuation,
// pulses an auxiliary output and sends `linkage.triggered`. The company's rules in words (create;
// delete after confirming).
import { useState } from 'preact/hooks';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ConfirmButton, Empty, ErrorNote, Section } from '../components';
import { useDoorBoard, type BoardDoor } from '../door-board';
import { when } from '../format';
import { CreateLinkageRuleDocument, DeleteLinkageRuleDocument, LinkageRulesDocument, SecurityAreasDocument, type LinkageRulesQuery } from '../gql';
import { problemText } from '../problems';

type Rule = LinkageRulesQuery['linkageRules']['nodes'][number];
type Area = { id: number; name: string };

const TRIGGERS: Record<string, string> = {
  forced_open: 'a door is forced open',
  held_open: 'a door is held open too long',
  duress: 'someone verifies under duress',
  refusals: 'refusals pile up',
};

/** What a trigger is, as a rule's "When" reads it. */
const TRIGGER_WORDS: Record<string, string> = { forced_open: 'forced open', held_open: 'held open too long', duress: 'duress verification' };

function describeTrigger(r: Rule, doors: BoardDoor[], deviceName: (id: number) => string): string {
  const door = doors.find((d) => d.id === r.doorId);
  const where = door ? `${door.name} (${door.device.name})` : `any door of ${deviceName(r.deviceId)}`;
  if (r.trigger === 'refusals') return `${r.refusalCount} refusals within ${r.refusalWindowMinutes} min at ${where}`;
  return `${TRIGGER_WORDS[r.trigger] ?? r.trigger} at ${where}`;
}

function describeActions(r: Rule, doors: BoardDoor[], areas: Area[]): string[] {
  const actions: string[] = [];
  if (r.lockdownMode) {
    const verb = r.lockdownMode === 'evacuate' ? 'evacuate' : 'lock down';
    const scope = r.lockdownAreaId
      ? `the doors of area ${areas.find((a) => a.id === r.lockdownAreaId)?.name ?? '(deleted)'}`
      : r.lockdownDoorIds?.length
        ? r.lockdownDoorIds.map((id) => doors.find((d) => d.id === id)?.name ?? `door #${id}`).join(', ')
        : 'every door of the company';
    actions.push(`${verb} ${scope}`);
  }
  if (r.auxOutput) actions.push(`pulse auxiliary output ${r.auxOutput} for ${r.auxOutputSeconds} s`);
  actions.push('send linkage.triggered');
  return actions;
}

function NewRule({ doors, areas, onCreated }: { doors: BoardDoor[]; areas: Area[]; onCreated: () => void }) {
  const [creating, create] = useMutation(CreateLinkageRuleDocument);
  const devices = [...new Map(doors.map((d) => [d.deviceId, d.device])).values()];
  const blank = {
    name: '',
    trigger: 'forced_open',
    where: '',
    refusalCount: '5',
    refusalWindowMinutes: '10',
    lockdown: false,
    lockdownMode: 'lockdown',
    lockdownScope: 'company',
    aux: false,
    auxOutput: '1',
    auxOutputSeconds: '5',
  };
  const [form, setForm] = useState(blank);
  const where = form.where || (devices[0] ? `device:${devices[0].id}` : '');
  const set = (key: keyof typeof blank) => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const [kind, id] = where.split(':');
  return (
    <Section title="New linkage rule">
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const scope = form.lockdownScope === 'company' ? {} : { lockdownAreaId: Number(form.lockdownScope.slice(5)) };
          const result = await create({
            input: {
              name: form.name.trim(),
              trigger: form.trigger,
              ...(kind === 'door' ? { doorId: Number(id) } : { deviceId: Number(id) }),
              ...(form.trigger === 'refusals' ? { refusalCount: Number(form.refusalCount), refusalWindowMinutes: Number(form.refusalWindowMinutes) } : {}),
              ...(form.lockdown ? { lockdownMode: form.lockdownMode, ...scope } : {}),
              ...(form.aux ? { auxOutput: Number(form.auxOutput), auxOutputSeconds: Number(form.auxOutputSeconds) } : {}),
            },
          });
          if (result.data) {
            setForm(blank);
            onCreated();
          }
        }}
      >
        <p class="field">
          <label for="linkage-name">Rule name</label>
          <input id="linkage-name" value={form.name} onInput={set('name')} required maxLength={100} />
        </p>
        <p class="field">
          <label for="linkage-trigger">When</label>
          <select id="linkage-trigger" value={form.trigger} onChange={set('trigger')}>
            {Object.entries(TRIGGERS).map(([value, label]) => (
              <option value={value}>{label}</option>
            ))}
          </select>
        </p>
        <p class="field">
          <label for="linkage-where">Where</label>
          <select id="linkage-where" value={where} onChange={set('where')}>
            {devices.map((device) => (
              <optgroup label={device.name}>
                <option value={`device:${device.id}`}>any door of {device.name}</option>
                {doors
                  .filter((d) => d.deviceId === device.id)
                  .map((d) => (
                    <option value={`door:${d.id}`}>
                      {d.name} ({device.name})
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </p>
        {form.trigger === 'refusals' && (
          <div class="inline-form">
            <p class="field">
              <label for="linkage-count">Refusals</label>
              <input id="linkage-count" type="number" min={1} max={1000} value={form.refusalCount} onInput={set('refusalCount')} required />
            </p>
            <p class="field">
              <label for="linkage-window">Within (minutes)</label>
              <input id="linkage-window" type="number" min={1} max={1440} value={form.refusalWindowMinutes} onInput={set('refusalWindowMinutes')} required />
            </p>
          </div>
        )}
        <fieldset>
          <legend>Then</legend>
          <label class="check">
            <input type="checkbox" checked={form.lockdown} onChange={() => setForm({ ...form, lockdown: !form.lockdown })} /> Start a lockdown or evacuation
          </label>
          {form.lockdown && (
            <div class="inline-form">
              <p class="field">
                <label for="linkage-mode">Mode</label>
                <select id="linkage-mode" value={form.lockdownMode} onChange={set('lockdownMode')}>
                  <option value="lockdown">Lock down</option>
                  <option value="evacuate">Evacuate</option>
                </select>
              </p>
              <p class="field">
                <label for="linkage-scope">Of</label>
                <select id="linkage-scope" value={form.lockdownScope} onChange={set('lockdownScope')}>
                  <option value="company">every door of the company</option>
                  {areas.map((a) => (
                    <option value={`area:${a.id}`}>the doors of area {a.name}</option>
                  ))}
                </select>
              </p>
            </div>
          )}
          <label class="check">
            <input type="checkbox" checked={form.aux} onChange={() => setForm({ ...form, aux: !form.aux })} /> Pulse an auxiliary output of the controller
          </label>
          {form.aux && (
            <div class="inline-form">
              <p class="field">
                <label for="linkage-aux">Output</label>
                <input id="linkage-aux" type="number" min={1} max={255} value={form.auxOutput} onInput={set('auxOutput')} required />
              </p>
              <p class="field">
                <label for="linkage-aux-seconds">For (seconds)</label>
                <input id="linkage-aux-seconds" type="number" min={1} max={254} value={form.auxOutputSeconds} onInput={set('auxOutputSeconds')} required />
              </p>
            </div>
          )}
          <p class="hint">Every firing also sends the webhook event linkage.triggered. The service runs the rule when the controller's events reach it.</p>
        </fieldset>
        <button type="submit" disabled={creating.fetching || !where}>
          Create rule
        </button>
        <ErrorNote message={problemText(creating.error)} />
      </form>
    </Section>
  );
}

export function LinkageRules() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('linkage-company');
  const [rules, refresh] = useQuery({ query: LinkageRulesDocument, variables: { companyId }, pause: !companyId, requestPolicy: 'network-only' });
  const [areasResult] = useQuery({ query: SecurityAreasDocument, variables: { companyId }, pause: !companyId });
  const [deleting, remove] = useMutation(DeleteLinkageRuleDocument);
  const board = useDoorBoard(0);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const doors = board.doors.filter((d) => d.device.companyId === companyId && d.present);
  const areas = areasResult.data?.areas.nodes ?? [];
  const deviceName = (id: number) => board.devices.find((d) => d.id === id)?.name ?? `controller #${id}`;
  const list = rules.data?.linkageRules.nodes ?? [];
  return (
    <div class="grid">
      <Section title="Linkage rules">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          {picker}
        </form>
        <ErrorNote message={errorMessage(rules.error) ?? problemText(deleting.error)} />
        {list.length === 0 ? (
          <Empty>No linkage rules in this company.</Empty>
        ) : (
          <table class="fold-on-phone">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">When</th>
                <th scope="col">Then</th>
                <th scope="col">Last fired</th>
                {canManage && (
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr data-rule={r.id}>
                  <th scope="row">{r.name}</th>
                  <td data-label="When">{describeTrigger(r, board.doors, deviceName)}</td>
                  <td data-label="Then">{describeActions(r, board.doors, areas).join('; ')}</td>
                  <td data-label="Last fired">{r.lastTriggeredAt ? when(r.lastTriggeredAt) : 'never'}</td>
                  {canManage && (
                    <td>
                      <ConfirmButton
                        label="Delete"
                        labelDetail={r.name}
                        title={`Delete the rule ${r.name}?`}
                        confirm="Delete rule"
                        onConfirm={async () => {
                          await remove({ id: r.id });
                          reload();
                        }}
                      >
                        <p>{describeTrigger(r, board.doors, deviceName)} will no longer set anything off. A lockdown it started stays until released.</p>
                      </ConfirmButton>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {canManage && companyId > 0 && <NewRule key={companyId} doors={doors} areas={areas} onCreated={reload} />}
    </div>
  );
}
