// The Pay policy page: a company's pay policy (docs/attendance.md, "Pay items and the pay policy") for
// the chosen company: what it pays, in words, and for `write` signers a form that changes it through
// updateCompany. Only the fields that differ are sent; an empty optional field resets it (no daily
// threshold: the scheduled minutes; no weekly overtime, double time or night premium). A change
// recomputes every unlocked day of the company, so saving first lists the changes in words and asks
// again; the API's refusals are shown as it words them.
import type { JSX } from 'preact';
import { useMutation, useQuery } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ErrorNote, Section } from '../components';
import { EntityForm, type Field, type Values } from '../entity-form';
import { CompanyPayPolicyDocument, UpdateCompanyPayPolicyDocument, type PayPolicyFieldsFragment, type PayPolicyInput } from '../gql';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Minutes as "8 h 30 min" (and the minutes themselves for the exact figure). */
function duration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const words = h && m ? `${h} h ${m} min` : h ? `${h} h` : `${m} min`;
  return minutes >= 60 ? `${words} (${minutes} min)` : words;
}

/** Each rule of the policy as a sentence, in the order of the page. */
function inWords(p: PayPolicyFieldsFragment): Array<[string, string]> {
  return [
    [
      'Overtime approval',
      p.overtimeRequiresApproval
        ? 'Overtime and double time count only once an approver approves them; until then they wait.'
        : 'Overtime and double time count as soon as they are worked.',
    ],
    [
      'Daily overtime',
      p.dailyOvertimeAfterMinutes == null
        ? "Paid time beyond the day's scheduled minutes is overtime."
        : `Paid time beyond ${duration(p.dailyOvertimeAfterMinutes)} of a workday is overtime.`,
    ],
    ['Double time', p.doubleTimeAfterMinutes == null ? 'None.' : `Paid time beyond ${duration(p.doubleTimeAfterMinutes)} of a workday is double time.`],
    [
      'Shortest overtime paid',
      p.overtimeMinMinutes === 0 ? 'Every minute of overtime is paid.' : `A day's overtime below ${duration(p.overtimeMinMinutes)} is not paid.`,
    ],
    [
      'Weekly overtime',
      p.weeklyOvertimeAfterMinutes == null ? 'None.' : `Regular time beyond ${duration(p.weeklyOvertimeAfterMinutes)} of a pay week becomes overtime.`,
    ],
    ['Pay week starts on', WEEKDAYS[p.weekStart - 1] ?? String(p.weekStart)],
    ['Work before the shift start', p.earlyOvertime ? 'Paid (as overtime).' : 'Not paid: a day is paid from the shift start.'],
    [
      'Night premium',
      p.nightStart && p.nightEnd
        ? `${p.nightPremiumPercent} % on top for time worked from ${p.nightStart} to ${p.nightEnd}${p.nightEnd <= p.nightStart ? ' (the next day)' : ''}.`
        : 'None (no night window).',
    ],
    ['Work on a holiday', p.holidayWork === 'overtime' ? 'Paid as overtime.' : `Paid as holiday time at ${p.holidayRatePercent} %.`],
    ['Work on a rest day', p.restDayWork === 'overtime' ? 'Paid as overtime.' : `Paid as rest-day time at ${p.restDayRatePercent} %.`],
    ['Rates', `Overtime ${p.overtimeRatePercent} %, double time ${p.doubleTimeRatePercent} % of the base rate (regular time 100 %).`],
  ];
}

const BOOLEANS = new Set(['overtimeRequiresApproval', 'earlyOvertime']);
const TEXTS = new Set(['nightStart', 'nightEnd', 'holidayWork', 'restDayWork']);

/** A number of the policy with what an empty one means (`hint`), in its group and line. */
const number = (name: string, label: string, hint: string, group: string, row: string, bounds: { max: number; step?: number; required?: boolean }): Field => ({
  name,
  label,
  hint,
  group,
  row,
  kind: 'number',
  min: 0,
  ...bounds,
});
/** A percentage of the policy: to two decimals, at most 1000 %. */
const PERCENT = { max: 1000, step: 0.01, required: true };
const NIGHT = 'Night, holidays and rest days';
const RATES = 'Rates (percent of the base rate)';

const FIELDS: Field[] = [
  { name: 'overtimeRequiresApproval', label: 'Overtime counts only once approved', kind: 'check', group: 'Overtime' },
  number('dailyOvertimeAfterMinutes', 'Daily overtime after (minutes)', "Empty: beyond the day's scheduled minutes.", 'Overtime', 'daily', { max: 1440 }),
  number('doubleTimeAfterMinutes', 'Double time after (minutes)', 'Empty: no double time.', 'Overtime', 'daily', { max: 1440 }),
  number('overtimeMinMinutes', 'Shortest overtime paid (minutes)', "A day's overtime below this is not paid.", 'Overtime', 'daily', {
    max: 1440,
    required: true,
  }),
  number('weeklyOvertimeAfterMinutes', 'Weekly overtime after (minutes)', 'Empty: no weekly overtime.', 'Overtime', 'weekly', { max: 10080 }),
  {
    name: 'weekStart',
    label: 'Pay week starts on',
    kind: 'select',
    group: 'Overtime',
    row: 'weekly',
    options: WEEKDAYS.map((d, i) => ({ value: String(i + 1), label: d })),
  },
  { name: 'earlyOvertime', label: 'Work before the shift start is paid', kind: 'check', group: 'Overtime' },
  { name: 'nightStart', label: 'Night starts at', kind: 'time', group: NIGHT, row: 'night', hint: 'Empty with the end: no night premium.' },
  { name: 'nightEnd', label: 'Night ends at', kind: 'time', group: NIGHT, row: 'night', hint: 'At or before the start: the next day.' },
  number('nightPremiumPercent', 'Night premium (%)', 'On top of the base rate.', NIGHT, 'night', PERCENT),
  {
    name: 'holidayWork',
    label: 'Work on a holiday is paid as',
    kind: 'select',
    group: NIGHT,
    row: 'days',
    options: [
      { value: 'holiday', label: 'Holiday time' },
      { value: 'overtime', label: 'Overtime' },
    ],
  },
  {
    name: 'restDayWork',
    label: 'Work on a rest day is paid as',
    kind: 'select',
    group: NIGHT,
    row: 'days',
    options: [
      { value: 'rest_day', label: 'Rest-day time' },
      { value: 'overtime', label: 'Overtime' },
    ],
  },
  number('overtimeRatePercent', 'Overtime rate (%)', 'Default 150.', RATES, 'rates', PERCENT),
  number('doubleTimeRatePercent', 'Double-time rate (%)', 'Default 200.', RATES, 'rates', PERCENT),
  number('holidayRatePercent', 'Holiday rate (%)', 'Default 200.', RATES, 'rates', PERCENT),
  number('restDayRatePercent', 'Rest-day rate (%)', 'Default 150.', RATES, 'rates', PERCENT),
];

const KEYS = FIELDS.map((f) => f.name) as Array<keyof PayPolicyInput>;

function valuesOf(p: PayPolicyFieldsFragment): Values {
  return Object.fromEntries(KEYS.map((key) => [key, BOOLEANS.has(key) ? Boolean(p[key]) : p[key] == null ? '' : String(p[key])]));
}

/** The fields that differ from the stored policy, as the API takes them (empty: null, which resets it). */
function changesOf(values: Values, stored: Values): PayPolicyInput {
  const input: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (values[key] === stored[key]) continue;
    const value = values[key];
    input[key] = BOOLEANS.has(key) ? value === true : value === '' ? null : TEXTS.has(key) ? value : Number(value);
  }
  return input as PayPolicyInput;
}

/** The changed rules in words ("Night premium: 12.5 % on top …"). */
function changedRules(policy: PayPolicyFieldsFragment, values: Values, stored: Values): string[] {
  const preview = inWords({ ...policy, ...changesOf(values, stored) } as PayPolicyFieldsFragment);
  const before = inWords(policy);
  return preview.filter(([, words], i) => words !== before[i]![1]).map(([term, words]) => `${term}: ${words}`);
}

/** The Pay policy page: a company (`companyId` from the address, e.g. the Pay periods page's link, or the first), its policy. */
export function PayPolicy({ companyId: initial }: { companyId?: number }) {
  const { companyId, picker } = useCompanyPicker('pay-policy-company', initial);
  const chooser = (
    <form class="filters" onSubmit={(e) => e.preventDefault()}>
      {picker}
    </form>
  );
  return (
    <div class="grid">
      {companyId > 0 ? <CompanyPayPolicy key={companyId} companyId={companyId} chooser={chooser} /> : <Section title="Pay policy">{chooser}</Section>}
    </div>
  );
}

/** The sections on a company's pay policy: in words (below `chooser`, the company picker), and the form (write). */
function CompanyPayPolicy({ companyId, chooser }: { companyId: number; chooser: JSX.Element }) {
  const canWrite = useAllowed('write');
  const [company, refresh] = useQuery({ query: CompanyPayPolicyDocument, variables: { id: companyId } });
  const current = company.data?.company;
  return (
    <>
      <Section title="Pay policy">
        {chooser}
        <ErrorNote message={errorMessage(company.error)} />
        {current && (
          <dl class="facts pay-policy-words" aria-label={`Pay policy of ${current.name}`}>
            {inWords(current.payPolicy).map(([term, words]) => (
              <>
                <dt>{term}</dt>
                <dd>{words}</dd>
              </>
            ))}
          </dl>
        )}
        {!canWrite && (
          <p class="muted" role="note">
            Changing the pay policy needs the write scope (the hr role); you see it read-only.
          </p>
        )}
      </Section>
      {canWrite && current && (
        <PolicyEditor
          key={current.id}
          companyId={current.id}
          companyName={current.name}
          policy={current.payPolicy}
          onSaved={() => refresh({ requestPolicy: 'network-only' })}
        />
      )}
    </>
  );
}

function PolicyEditor({
  companyId,
  companyName,
  policy,
  onSaved,
}: {
  companyId: number;
  companyName: string;
  policy: PayPolicyFieldsFragment;
  onSaved: () => void;
}) {
  const [, save] = useMutation(UpdateCompanyPayPolicyDocument);
  const stored = valuesOf(policy);
  return (
    <EntityForm
      title="Change the pay policy"
      class="pay-policy-form"
      idPrefix="pay-policy"
      fields={FIELDS}
      initial={stored}
      followInitial
      resetOnSave={false}
      submitLabel="Save pay policy"
      undoLabel="Undo changes"
      confirm={{
        title: `Change ${companyName}'s pay policy?`,
        confirmLabel: 'Change pay policy',
        describe: (values) => changedRules(policy, values, stored),
        note: (
          <p>
            Every day of {companyName} outside a locked pay period is recomputed with the new policy (pay items, overtime, the payroll export); days of locked
            periods keep theirs.
          </p>
        ),
      }}
      refusedLead="The pay policy was not changed:"
      save={(values) => save({ id: companyId, payPolicy: changesOf(values, stored) })}
      saved={() => `Saved. ${companyName}'s days are being recomputed with the new policy.`}
      onSaved={onSaved}
    />
  );
}
