// Linkage rules: when a controller (or one of its doors) reports a forced opening, a door held open,
// a duress verification or N refusals within M minutes, the service starts a lockdown or evacuation,
// pulses an auxiliary output and sends `linkage.triggered`. The company's rules in words (create;
// delete after confirming).
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { useDoorBoard, type BoardDoor } from '../door-board';
import { EntityForm, type Field, type Values } from '../entity-form';
import { DeleteButton, EntityList } from '../entity-list';
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

function ruleFields(doors: BoardDoor[], areas: Area[]): Field[] {
  const devices = [...new Map(doors.map((d) => [d.deviceId, d.device])).values()];
  const then = 'Then';
  return [
    { name: 'name', label: 'Rule name', kind: 'text', maxLength: 100, required: true },
    { name: 'trigger', label: 'When', kind: 'select', options: Object.entries(TRIGGERS).map(([value, label]) => ({ value, label })) },
    {
      name: 'where',
      label: 'Where',
      kind: 'select',
      apiFields: ['deviceId', 'doorId'],
      options: devices.flatMap((device) => [
        { value: `device:${device.id}`, label: `any door of ${device.name}`, group: device.name },
        ...doors.filter((d) => d.deviceId === device.id).map((d) => ({ value: `door:${d.id}`, label: `${d.name} (${device.name})`, group: device.name })),
      ]),
    },
    { name: 'refusalCount', label: 'Refusals', kind: 'number', min: 1, max: 1000, required: true, row: 'refusals', when: (v) => v.trigger === 'refusals' },
    {
      name: 'refusalWindowMinutes',
      label: 'Within (minutes)',
      kind: 'number',
      min: 1,
      max: 1440,
      required: true,
      row: 'refusals',
      when: (v) => v.trigger === 'refusals',
    },
    { name: 'lockdown', label: 'Start a lockdown or evacuation', kind: 'check', group: then },
    {
      name: 'lockdownMode',
      label: 'Mode',
      kind: 'select',
      group: then,
      row: 'lockdown',
      when: (v) => v.lockdown === true,
      options: [
        { value: 'lockdown', label: 'Lock down' },
        { value: 'evacuate', label: 'Evacuate' },
      ],
    },
    {
      name: 'lockdownScope',
      label: 'Of',
      kind: 'select',
      group: then,
      row: 'lockdown',
      when: (v) => v.lockdown === true,
      apiFields: ['lockdownAreaId'],
      options: [
        { value: 'company', label: 'every door of the company' },
        ...areas.map((a) => ({ value: `area:${a.id}`, label: `the doors of area ${a.name}` })),
      ],
    },
    { name: 'aux', label: 'Pulse an auxiliary output of the controller', kind: 'check', group: then },
    { name: 'auxOutput', label: 'Output', kind: 'number', min: 1, max: 255, required: true, group: then, row: 'aux', when: (v) => v.aux === true },
    {
      name: 'auxOutputSeconds',
      label: 'For (seconds)',
      kind: 'number',
      min: 1,
      max: 254,
      required: true,
      group: then,
      row: 'aux',
      when: (v) => v.aux === true,
    },
    {
      name: 'note',
      label: "Every firing also sends the webhook event linkage.triggered. The service runs the rule when the controller's events reach it.",
      kind: 'note',
      group: then,
    },
  ];
}

const BLANK_RULE: Values = {
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

function ruleInput(v: Values) {
  const [kind, id] = (v.where as string).split(':');
  const scope = v.lockdownScope === 'company' ? {} : { lockdownAreaId: Number((v.lockdownScope as string).slice(5)) };
  return {
    name: (v.name as string).trim(),
    trigger: v.trigger as string,
    ...(kind === 'door' ? { doorId: Number(id) } : { deviceId: Number(id) }),
    ...(v.trigger === 'refusals' ? { refusalCount: Number(v.refusalCount), refusalWindowMinutes: Number(v.refusalWindowMinutes) } : {}),
    ...(v.lockdown ? { lockdownMode: v.lockdownMode as string, ...scope } : {}),
    ...(v.aux ? { auxOutput: Number(v.auxOutput), auxOutputSeconds: Number(v.auxOutputSeconds) } : {}),
  };
}

export function LinkageRules() {
  const canManage = useAllowed('doors:manage');
  const { companyId, picker } = useCompanyPicker('linkage-company');
  const [rules, refresh] = useQuery({ query: LinkageRulesDocument, variables: { companyId }, pause: !companyId, requestPolicy: 'network-only' });
  const [areasResult] = useQuery({ query: SecurityAreasDocument, variables: { companyId }, pause: !companyId });
  const [deleting, remove] = useMutation(DeleteLinkageRuleDocument);
  const [, create] = useMutation(CreateLinkageRuleDocument);
  const board = useDoorBoard(0);
  const reload = () => refresh({ requestPolicy: 'network-only' });
  const doors = board.doors.filter((d) => d.device.companyId === companyId && d.present);
  const areas = areasResult.data?.areas.nodes ?? [];
  const deviceName = (id: number) => board.devices.find((d) => d.id === id)?.name ?? `controller #${id}`;
  return (
    <div class="grid">
      <EntityList
        title="Linkage rules"
        filters={picker}
        rows={rules.data ? rules.data.linkageRules.nodes : companyId ? null : []}
        empty="No linkage rules in this company."
        error={errorMessage(rules.error) ?? problemText(deleting.error)}
        rowData={(r) => ({ rule: r.id })}
        columns={[
          { header: 'Rule', rowHeader: true, cell: (r) => r.name },
          { header: 'When', label: 'When', cell: (r) => describeTrigger(r, board.doors, deviceName) },
          { header: 'Then', label: 'Then', cell: (r) => describeActions(r, board.doors, areas).join('; ') },
          { header: 'Last fired', label: 'Last fired', cell: (r) => (r.lastTriggeredAt ? when(r.lastTriggeredAt) : 'never') },
        ]}
        actions={
          canManage
            ? (r) => (
                <DeleteButton
                  noun="rule"
                  name={r.name}
                  onConfirm={async () => {
                    await remove({ id: r.id });
                    reload();
                  }}
                >
                  <p>{describeTrigger(r, board.doors, deviceName)} will no longer set anything off. A lockdown it started stays until released.</p>
                </DeleteButton>
              )
            : undefined
        }
      />
      {canManage && companyId > 0 && (
        <EntityForm
          key={companyId}
          title="New linkage rule"
          idPrefix="linkage"
          fields={ruleFields(doors, areas)}
          initial={BLANK_RULE}
          submitLabel="Create rule"
          disabled={(v) => !v.where}
          save={(v) => create({ input: ruleInput(v) })}
          onSaved={reload}
        />
      )}
    </div>
  );
}
