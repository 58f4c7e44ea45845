// The Pay policy page: a company's pay policy (docs/attendance.md, "Pay items and the pay policy") for
// the chosen company: what it pays, in words, and for `write` signers a form that changes it through
// updateCompany. Only the fields that differ are sent; an empty optional field resets it (no daily
// threshold: the scheduled minutes; no weekly overtime, double time or night premium). A change
// recomputes every unlocked day of the company, so saving first lists the changes in words and asks
// again; the API's refusals are shown as it words them.
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useMutation, useQuery, type CombinedError } from '@urql/preact';
import { useAllowed } from '../app-context';
import { errorMessage } from '../client';
import { useCompanyPicker } from '../company-picker';
import { ErrorNote, Section } from '../components';
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

type Form = Record<keyof Omit<PayPolicyFieldsFragment, '__typename'>, string>;
const KEYS: Array<keyof Form> = [
  'overtimeRequiresApproval',
  'dailyOvertimeAfterMinutes',
  'doubleTimeAfterMinutes',
  'overtimeMinMinutes',
  'weeklyOvertimeAfterMinutes',
  'weekStart',
  'earlyOvertime',
  'nightStart',
  'nightEnd',
  'nightPremiumPercent',
  'holidayWork',
  'restDayWork',
  'overtimeRatePercent',
  'doubleTimeRatePercent',
  'holidayRatePercent',
  'restDayRatePercent',
];
const BOOLEANS = new Set<keyof Form>(['overtimeRequiresApproval', 'earlyOvertime']);
const TEXTS = new Set<keyof Form>(['nightStart', 'nightEnd', 'holidayWork', 'restDayWork']);

function formOf(p: PayPolicyFieldsFragment): Form {
  const form = {} as Form;
  for (const key of KEYS) form[key] = p[key] == null ? '' : String(p[key]);
  return form;
}

/** The fields that differ from the stored policy, as the API takes them (empty: null, which resets it). */
function changesOf(form: Form, stored: Form): PayPolicyInput {
  const input: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (form[key] === stored[key]) continue;
    const value = form[key];
    input[key] = BOOLEANS.has(key) ? value === 'true' : value === '' ? null : TEXTS.has(key) ? value : Number(value);
  }
  return input as PayPolicyInput;
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

/** Field problems of a refusal, one line each (the API names the field and says what is wrong). */
function refusal(error: CombinedError | undefined): string[] {
  if (!error) return [];
  const details = error.graphQLErrors[0]?.extensions?.details as Array<{ message: string }> | undefined;
  return details?.length ? details.map((d) => d.message) : [errorMessage(error) ?? 'The change was refused.'];
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
  const stored = formOf(policy);
  const [form, setForm] = useState<Form>(stored);
  const [saving, save] = useMutation(UpdateCompanyPayPolicyDocument);
  const [refused, setRefused] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  // A saved policy comes back as the stored one: the form starts from it again.
  useEffect(() => setForm(formOf(policy)), [JSON.stringify(policy)]);
  const set = (key: keyof Form) => (e: Event) => {
    setDone(null);
    setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  };
  const check = (key: keyof Form) => (e: Event) => {
    setDone(null);
    setForm({ ...form, [key]: String((e.target as HTMLInputElement).checked) });
  };
  const changes = changesOf(form, stored);
  const changed = KEYS.filter((k) => k in changes);
  const preview = inWords({ ...policy, ...Object.fromEntries(changed.map((k) => [k, changes[k as keyof PayPolicyInput]])) } as PayPolicyFieldsFragment);
  const before = inWords(policy);
  const changedLines = preview.filter(([, words], i) => words !== before[i]![1]);
  const number = (key: keyof Form, label: string, hint: string, attrs: { min: number; max: number; step?: number; required?: boolean }) => (
    <p class="field">
      <label for={`pay-policy-${key}`}>{label}</label>
      <input
        id={`pay-policy-${key}`}
        type="number"
        min={attrs.min}
        max={attrs.max}
        step={attrs.step ?? 1}
        required={attrs.required}
        value={form[key]}
        onInput={set(key)}
        aria-describedby={`pay-policy-${key}-hint`}
      />
      <span class="hint" id={`pay-policy-${key}-hint`}>
        {hint}
      </span>
    </p>
  );
  return (
    <Section title="Change the pay policy">
      <form
        class="form pay-policy-form"
        onSubmit={(event) => {
          event.preventDefault();
          setRefused([]);
          setDone(null);
          if (changed.length === 0) {
            setDone('Nothing to save: the form is the stored policy.');
            return;
          }
          dialog.current?.showModal();
        }}
      >
        <fieldset>
          <legend>Overtime</legend>
          <label class="check">
            <input type="checkbox" checked={form.overtimeRequiresApproval === 'true'} onChange={check('overtimeRequiresApproval')} /> Overtime counts only once
            approved
          </label>
          <div class="inline-form">
            {number('dailyOvertimeAfterMinutes', 'Daily overtime after (minutes)', "Empty: beyond the day's scheduled minutes.", { min: 0, max: 1440 })}
            {number('doubleTimeAfterMinutes', 'Double time after (minutes)', 'Empty: no double time.', { min: 0, max: 1440 })}
            {number('overtimeMinMinutes', 'Shortest overtime paid (minutes)', "A day's overtime below this is not paid.", {
              min: 0,
              max: 1440,
              required: true,
            })}
          </div>
          <div class="inline-form">
            {number('weeklyOvertimeAfterMinutes', 'Weekly overtime after (minutes)', 'Empty: no weekly overtime.', { min: 0, max: 10080 })}
            <p class="field">
              <label for="pay-policy-weekStart">Pay week starts on</label>
              <select id="pay-policy-weekStart" value={form.weekStart} onChange={set('weekStart')}>
                {WEEKDAYS.map((d, i) => (
                  <option value={String(i + 1)}>{d}</option>
                ))}
              </select>
            </p>
          </div>
          <label class="check">
            <input type="checkbox" checked={form.earlyOvertime === 'true'} onChange={check('earlyOvertime')} /> Work before the shift start is paid
          </label>
        </fieldset>
        <fieldset>
          <legend>Night, holidays and rest days</legend>
          <div class="inline-form">
            <p class="field">
              <label for="pay-policy-nightStart">Night starts at</label>
              <input id="pay-policy-nightStart" type="time" value={form.nightStart} onInput={set('nightStart')} aria-describedby="pay-policy-night-hint" />
            </p>
            <p class="field">
              <label for="pay-policy-nightEnd">Night ends at</label>
              <input id="pay-policy-nightEnd" type="time" value={form.nightEnd} onInput={set('nightEnd')} aria-describedby="pay-policy-night-hint" />
            </p>
            {number('nightPremiumPercent', 'Night premium (%)', 'On top of the base rate.', { min: 0, max: 1000, step: 0.01, required: true })}
          </div>
          <p class="hint" id="pay-policy-night-hint">
            Both empty: no night premium. An end at or before the start is the next day.
          </p>
          <div class="inline-form">
            <p class="field">
              <label for="pay-policy-holidayWork">Work on a holiday is paid as</label>
              <select id="pay-policy-holidayWork" value={form.holidayWork} onChange={set('holidayWork')}>
                <option value="holiday">Holiday time</option>
                <option value="overtime">Overtime</option>
              </select>
            </p>
            <p class="field">
              <label for="pay-policy-restDayWork">Work on a rest day is paid as</label>
              <select id="pay-policy-restDayWork" value={form.restDayWork} onChange={set('restDayWork')}>
                <option value="rest_day">Rest-day time</option>
                <option value="overtime">Overtime</option>
              </select>
            </p>
          </div>
        </fieldset>
        <fieldset>
          <legend>Rates (percent of the base rate)</legend>
          <div class="inline-form">
            {number('overtimeRatePercent', 'Overtime rate (%)', 'Default 150.', { min: 0, max: 1000, step: 0.01, required: true })}
            {number('doubleTimeRatePercent', 'Double-time rate (%)', 'Default 200.', { min: 0, max: 1000, step: 0.01, required: true })}
            {number('holidayRatePercent', 'Holiday rate (%)', 'Default 200.', { min: 0, max: 1000, step: 0.01, required: true })}
            {number('restDayRatePercent', 'Rest-day rate (%)', 'Default 150.', { min: 0, max: 1000, step: 0.01, required: true })}
          </div>
        </fieldset>
        <p class="inline-form">
          <button type="submit" disabled={saving.fetching}>
            Save pay policy
          </button>
          <button
            type="button"
            class="secondary"
            disabled={changed.length === 0}
            onClick={() => {
              setForm(stored);
              setRefused([]);
            }}
          >
            Undo changes
          </button>
        </p>
        {done && <p role="status">{done}</p>}
        {refused.length > 0 && (
          <div class="error" role="alert">
            <p>The pay policy was not changed:</p>
            <ul>
              {refused.map((line) => (
                <li>{line}</li>
              ))}
            </ul>
          </div>
        )}
      </form>
      <dialog ref={dialog} aria-label={`Change ${companyName}'s pay policy?`} class="confirm">
        <form
          method="dialog"
          onSubmit={async (event) => {
            const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value !== 'confirm') return;
            const result = await save({ id: companyId, payPolicy: changes });
            if (result.error) {
              setRefused(refusal(result.error));
              return;
            }
            setDone(`Saved. ${companyName}'s days are being recomputed with the new policy.`);
            onSaved();
          }}
        >
          <h2>Change {companyName}'s pay policy?</h2>
          {changedLines.length > 0 ? (
            <ul class="decision-list">
              {changedLines.map(([term, words]) => (
                <li>
                  <strong>{term}:</strong> {words}
                </li>
              ))}
            </ul>
          ) : (
            <p>The stored values change, the rules in words stay the same.</p>
          )}
          <p>
            Every day of {companyName} outside a locked pay period is recomputed with the new policy (pay items, overtime, the payroll export); days of locked
            periods keep theirs.
          </p>
          <p class="inline-form">
            <button type="submit" value="cancel" class="secondary" formNoValidate autofocus>
              Cancel
            </button>
            <button type="submit" value="confirm" class="danger">
              Change pay policy
            </button>
          </p>
        </form>
      </dialog>
    </Section>
  );
}
