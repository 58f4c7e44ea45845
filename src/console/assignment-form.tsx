// The "assign to a person or everyone in an area, from a date" form that shifts and rosters share:
// one of the page's items, the target, and the dates. The page supplies the mutation.
import { useState } from 'preact/hooks';
import { ErrorNote, Section } from './components';
import { today } from './format';

export interface AssignmentTarget {
  itemId: number;
  target: { employeeId: number } | { areaId: number };
  startDate: string;
  endDate: string | null;
}

export function AssignmentForm({
  title,
  itemLabel,
  items,
  employees,
  areas,
  idPrefix,
  submitLabel,
  busy,
  error,
  onAssign,
}: {
  /** The section's title, e.g. "Assign a shift". */
  title: string;
  /** What is assigned, e.g. "Shift": the first select's label. */
  itemLabel: string;
  items: Array<{ id: number; name: string }>;
  employees: Array<{ id: number; name: string; lastname: string; code: string }>;
  areas: Array<{ id: number; name: string }>;
  /** Prefix of the controls' ids and of the radio group's name (unique on the page). */
  idPrefix: string;
  submitLabel: string;
  busy: boolean;
  error: string | null;
  /** Runs the page's mutation (and what follows a success). */
  onAssign: (assignment: AssignmentTarget) => Promise<unknown>;
}) {
  const [form, setForm] = useState({ itemId: '', to: 'person', employeeId: '', areaId: '', startDate: today(), endDate: '' });
  const set = (key: keyof typeof form) => (e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value });
  const itemId = Number(form.itemId || items[0]?.id || 0);
  const employeeId = Number(form.employeeId || employees[0]?.id || 0);
  const areaId = Number(form.areaId || areas[0]?.id || 0);
  return (
    <Section title={title}>
      <form
        class="form"
        onSubmit={async (event) => {
          event.preventDefault();
          const target = form.to === 'person' ? { employeeId } : { areaId };
          await onAssign({ itemId, target, startDate: form.startDate, endDate: form.endDate || null });
        }}
      >
        <p class="field">
          <label for={`${idPrefix}-item`}>{itemLabel}</label>
          <select id={`${idPrefix}-item`} value={String(itemId)} onChange={set('itemId')}>
            {items.map((item) => (
              <option value={item.id}>{item.name}</option>
            ))}
          </select>
        </p>
        <fieldset>
          <legend>Assign to</legend>
          <label class="check">
            <input type="radio" name={`${idPrefix}-to`} value="person" checked={form.to === 'person'} onChange={set('to')} /> A person
          </label>
          <label class="check">
            <input type="radio" name={`${idPrefix}-to`} value="area" checked={form.to === 'area'} onChange={set('to')} /> Everyone in an area
          </label>
        </fieldset>
        {form.to === 'person' ? (
          <p class="field">
            <label for={`${idPrefix}-employee`}>Person</label>
            <select id={`${idPrefix}-employee`} value={String(employeeId)} onChange={set('employeeId')}>
              {employees.map((e) => (
                <option value={e.id}>
                  {e.name} {e.lastname} ({e.code})
                </option>
              ))}
            </select>
          </p>
        ) : (
          <p class="field">
            <label for={`${idPrefix}-area`}>Area</label>
            <select id={`${idPrefix}-area`} value={String(areaId)} onChange={set('areaId')}>
              {areas.map((a) => (
                <option value={a.id}>{a.name}</option>
              ))}
            </select>
          </p>
        )}
        <div class="inline-form">
          <p class="field">
            <label for={`${idPrefix}-from`}>From</label>
            <input id={`${idPrefix}-from`} type="date" value={form.startDate} onInput={set('startDate')} required />
          </p>
          <p class="field">
            <label for={`${idPrefix}-until`}>Until (optional)</label>
            <input id={`${idPrefix}-until`} type="date" value={form.endDate} onInput={set('endDate')} />
          </p>
        </div>
        <button type="submit" disabled={busy || !itemId || (form.to === 'person' ? !employeeId : !areaId)}>
          {submitLabel}
        </button>
        <ErrorNote message={error} />
      </form>
    </Section>
  );
}
