// The console's one form: its fields described as data (label, kind, bounds, options, when it is
// shown, how it is laid out), the API's refusal shown by field (`extensions.details`: each message
// under the field it names, all of them in one alert), and, where a change has consequences, a
// confirmation listing the changes before anything is sent. A page describes its fields, turns the
// values into the mutation's input and reloads what it lists when the form says it saved.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useQuery, type CombinedError, type OperationResult } from '@urql/preact';
import { errorMessage } from './client';
import { Section } from './components';
import { CompanyPeopleDocument } from './gql';

export interface Option {
  value: string;
  label: string;
  /** Consecutive options of one group are listed under it (an optgroup). */
  group?: string;
}

/** Records as options: their id, and their name (or what `label` says). */
export function choices<T extends { id: number; name: string }>(items: readonly T[], label: (item: T) => string = (item) => item.name): Option[] {
  return items.map((item) => ({ value: String(item.id), label: label(item) }));
}

/** Options as a select lists them: those with a group under an optgroup of it. */
function optionList(options: Option[]) {
  const out: Array<ComponentChildren> = [];
  for (let i = 0; i < options.length;) {
    const group = options[i]!.group;
    if (!group) {
      const o = options[i++]!;
      out.push(<option value={o.value}>{o.label}</option>);
      continue;
    }
    const members: Option[] = [];
    while (i < options.length && options[i]!.group === group) members.push(options[i++]!);
    out.push(
      <optgroup label={group}>
        {members.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </optgroup>,
    );
  }
  return out;
}

/** A door to choose, with the group (its area) it is listed under. */
export interface DoorOption {
  id: number;
  label: string;
  group: string;
}

/** A form's values: text of inputs and selects, a tick, or the values ticked / listed. */
export type Value = string | boolean | string[];
export type Values = Record<string, Value>;

interface Common {
  /** The value's key, and the API input field whose refusal is shown under it. */
  name: string;
  /** The control's accessible name (and visible label). */
  label: string;
  hint?: string;
  /** Shown (and sent) only when this holds of the values. */
  when?: (values: Values) => boolean;
  /** Consecutive fields with the same row are laid out side by side. */
  row?: string;
  /** Consecutive fields with the same group are one fieldset with this legend. */
  group?: string;
  /** Other API input fields whose refusal belongs under this field (and their parts: `intervals` takes `intervals.0.endTime`). */
  apiFields?: string[];
}

export type Field = Common &
  (
    | { kind: 'text'; maxLength: number; required?: boolean; size?: number; digits?: boolean }
    | { kind: 'number'; min: number; max: number; step?: number; required?: boolean }
    | { kind: 'date' | 'time' | 'datetime'; required?: boolean }
    | { kind: 'color' }
    | { kind: 'select'; options: Option[] }
    /** A tick box (value true / false). */
    | { kind: 'check' }
    /** Tick boxes in a fieldset (value: the ticked options' values). */
    | { kind: 'checks'; options: Option[] }
    | { kind: 'radio'; options: Option[] }
    /** Doors grouped by area, with a search once there are many (value: the ticked doors' ids). */
    | { kind: 'doors'; doors: DoorOption[]; empty: string }
    /** A person of the company: the first 1,000, and a search by name or code when there are more. */
    | { kind: 'person'; companyId: number; exclude?: ReadonlySet<number> }
    /** A list of choices that grows and shrinks (a roster's cycle): one select per item. */
    | {
        kind: 'sequence';
        options: Option[];
        legend: (values: Values) => string;
        itemLabel: (index: number, values: Values) => ComponentChildren;
        max: number;
        addLabel: string;
        removeLabel: string;
      }
    /** A sentence between the fields (the label is the text). */
    | { kind: 'note' }
  );

/** The confirmation a change asks for: what it is called, what it changes (in words), what follows. */
export interface Confirmation {
  title: string;
  confirmLabel: string;
  /** The changes in words; by default each changed field with its new value. */
  describe?: (values: Values, initial: Values) => string[];
  note?: ComponentChildren;
}

/** A field's value as a number, or null when empty (an optional number the API resets with null). */
export const numberOrNull = (value: Value | undefined): number | null => (value === '' || value === undefined ? null : Number(value));
/** A field's text trimmed, or null when empty. */
export const textOrNull = (value: Value | undefined): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
/** The ids of a doors or checks field. */
export const ids = (value: Value | undefined): number[] => (Array.isArray(value) ? value.map(Number) : []);

/** The field messages and the summary of a refusal (`extensions.details`: field, code, message). */
function refusalOf(error: CombinedError): { message: string; details: Array<{ field: string; message: string }> } {
  const details = (error.graphQLErrors[0]?.extensions?.details ?? []) as Array<{ field: string; message: string }>;
  return { message: errorMessage(error) ?? 'The change was refused.', details };
}

const shown = (field: Field, values: Values) => !field.when || field.when(values);

/** The values as sent: a select's or a radio group's empty value is its first option (what the control shows). */
function effective(fields: Field[], values: Values, loaded: Record<string, Option[]>): Values {
  const out = { ...values };
  for (const field of fields) {
    const options = field.kind === 'select' || field.kind === 'radio' ? field.options : field.kind === 'person' ? loaded[field.name] : undefined;
    if (!options) continue;
    const value = out[field.name];
    if (!options.some((o) => o.value === value)) out[field.name] = options[0]?.value ?? '';
  }
  return out;
}

/** A value as the confirmation shows it. */
function display(field: Field, value: Value | undefined): string {
  if (field.kind === 'check') return value ? 'yes' : 'no';
  if (field.kind === 'select' || field.kind === 'radio') return field.options.find((o) => o.value === value)?.label ?? String(value ?? '');
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  return value === '' || value === undefined ? 'empty' : String(value);
}

function same(a: Value | undefined, b: Value | undefined): boolean {
  return JSON.stringify(a ?? '') === JSON.stringify(b ?? '');
}

/** The form's fields that differ from `initial`, each as "label: new value". */
export function changedFields(fields: Field[], values: Values, initial: Values): string[] {
  return fields
    .filter((f) => f.kind !== 'note' && shown(f, values) && !same(values[f.name], initial[f.name]))
    .map((f) => `${f.label}: ${display(f, values[f.name])}`);
}

export interface EntityFormProps {
  /** The card's title ("New shift"), or with `inline` the form's accessible name. */
  title: string;
  /** A form inside another card (a heading of the third level when `heading`), not a card of its own. */
  inline?: boolean;
  heading?: boolean;
  /** Prefix of the controls' ids (unique on the page). */
  idPrefix: string;
  fields: Field[];
  initial: Values;
  /** Start again from `initial` whenever it changes (a stored record read again after saving). */
  followInitial?: boolean;
  submitLabel: string;
  /** Further reasons the submit button is off (nothing to assign to). */
  disabled?: (values: Values) => boolean;
  /** Sends the values (the page's mutation). */
  save: (values: Values) => Promise<OperationResult<unknown>>;
  /** After a save the API accepted: the page reloads its list. */
  onSaved?: (data: unknown, values: Values) => void;
  /** Empty the form after a save (default: unless `onCancel`, which marks an edit). */
  resetOnSave?: boolean;
  /** An edit's "Cancel editing". */
  onCancel?: () => void;
  /** Asks first, listing the changes. */
  confirm?: Confirmation;
  /** Said (role status) after a save. */
  saved?: (values: Values) => string;
  /** The first line of a refusal ("The pay policy was not changed:"); by default the API's message. */
  refusedLead?: string;
  /** A button putting the stored values back. */
  undoLabel?: string;
  /** Told the values as they change (a page that loads a field's options from another's value). */
  onChange?: (values: Values) => void;
  /** Sentences after the fields (hints on the whole form). */
  footer?: ComponentChildren;
  class?: string;
}

export function EntityForm(props: EntityFormProps) {
  const { fields, initial, idPrefix } = props;
  const [values, setValues] = useState<Values>(initial);
  const [loaded, setLoaded] = useState<Record<string, Option[]>>({});
  const [refusal, setRefusal] = useState<{ message: string; details: Array<{ field: string; message: string }> } | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const initialKey = JSON.stringify(initial);
  useEffect(() => {
    if (props.followInitial) setValues(initial);
  }, [initialKey]);
  const current = effective(fields, values, loaded);
  const start = effective(fields, initial, loaded);
  const currentKey = JSON.stringify(current);
  useEffect(() => props.onChange?.(current), [currentKey]);
  const set = (name: string, value: Value) => {
    setStatus(null);
    setValues((before) => ({ ...before, [name]: value }));
  };
  const changes = props.confirm?.describe ? props.confirm.describe(current, start) : changedFields(fields, current, start);
  const anyChange = fields.some((f) => f.kind !== 'note' && !same(current[f.name], start[f.name]));

  const send = async () => {
    setRefusal(null);
    setStatus(null);
    setBusy(true);
    const result = await props.save(current).finally(() => setBusy(false));
    if (result.error) {
      setRefusal(refusalOf(result.error));
      return;
    }
    if (props.resetOnSave ?? !props.onCancel) setValues(initial);
    if (props.saved) setStatus(props.saved(current));
    props.onSaved?.(result.data, current);
  };

  // Refusal messages by field: under the field, and all of them in the alert.
  // A detail names a field (`validUntil`) or a part of one (`intervals.0.endTime` belongs to `intervals`).
  const belongs = (detail: string, field: Field) => [field.name, ...(field.apiFields ?? [])].some((n) => detail === n || detail.startsWith(`${n}.`));
  const messagesOf = (field: Field) => (refusal?.details ?? []).filter((d) => belongs(d.field, field)).map((d) => d.message);
  const lines = refusal ? refusal.details.map((d) => d.message).filter((m) => m && m !== refusal.message) : [];

  const form = (
    <form
      class={`form ${props.class ?? ''}`}
      aria-label={props.inline ? props.title : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        if (!props.confirm) return void send();
        setRefusal(null);
        if (!anyChange) {
          setStatus('Nothing to save: the form is the stored record.');
          return;
        }
        dialog.current?.showModal();
      }}
    >
      {props.inline && props.heading && <h3>{props.title}</h3>}
      {layout(fields.filter((f) => shown(f, current))).map((block) =>
        block.group ? (
          <fieldset>
            <legend>{block.group}</legend>
            {block.rows.map((row) => renderRow(row))}
          </fieldset>
        ) : (
          block.rows.map((row) => renderRow(row))
        ),
      )}
      {props.footer}
      <p class="inline-form">
        <button type="submit" disabled={busy || (props.disabled?.(current) ?? false)}>
          {props.submitLabel}
        </button>
        {props.undoLabel && (
          <button
            type="button"
            class="secondary"
            disabled={!anyChange}
            onClick={() => {
              setValues(initial);
              setRefusal(null);
            }}
          >
            {props.undoLabel}
          </button>
        )}
        {props.onCancel && (
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel editing
          </button>
        )}
      </p>
      {status && <p role="status">{status}</p>}
      {refusal && (
        <div class="error" role="alert">
          <p>{props.refusedLead ?? refusal.message}</p>
          {(props.refusedLead ? (lines.length ? lines : [refusal.message]) : lines).length > 0 && (
            <ul>
              {(props.refusedLead ? (lines.length ? lines : [refusal.message]) : lines).map((line) => (
                <li>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );

  function renderRow(row: Field[]) {
    return row.length > 1 ? <div class="inline-form">{row.map(renderField)}</div> : renderField(row[0]!);
  }

  function renderField(field: Field) {
    const id = `${idPrefix}-${field.name}`;
    const problems = messagesOf(field);
    const described = [field.hint ? `${id}-hint` : '', problems.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    const value = current[field.name];
    const text = typeof value === 'string' ? value : '';
    const aria = { 'aria-describedby': described, 'aria-invalid': problems.length ? ('true' as const) : undefined };
    const after = (
      <>
        {field.hint && (
          <span class="hint" id={`${id}-hint`}>
            {field.hint}
          </span>
        )}
        {problems.length > 0 && (
          <span class="field-error" id={`${id}-error`}>
            {problems.join(' ')}
          </span>
        )}
      </>
    );
    const onText = (e: Event) => set(field.name, (e.target as HTMLInputElement).value);
    switch (field.kind) {
      case 'note':
        return <p class="hint">{field.label}</p>;
      case 'check':
        return (
          <p class="field">
            <label class="check">
              <input type="checkbox" checked={value === true} onChange={(e) => set(field.name, (e.target as HTMLInputElement).checked)} {...aria} />{' '}
              {field.label}
            </label>
            {after}
          </p>
        );
      case 'checks':
      case 'radio': {
        const list = Array.isArray(value) ? value : [];
        return (
          <fieldset aria-describedby={described}>
            <legend>{field.label}</legend>
            {field.options.map((o) =>
              field.kind === 'radio' ? (
                <label class="check">
                  <input type="radio" name={id} value={o.value} checked={value === o.value} onChange={() => set(field.name, o.value)} /> {o.label}
                </label>
              ) : (
                <label class="check">
                  <input
                    type="checkbox"
                    checked={list.includes(o.value)}
                    onChange={() =>
                      set(
                        field.name,
                        list.includes(o.value)
                          ? list.filter((x) => x !== o.value)
                          : field.options.map((x) => x.value).filter((x) => x === o.value || list.includes(x)),
                      )
                    }
                  />{' '}
                  {o.label}
                </label>
              ),
            )}
            {after}
          </fieldset>
        );
      }
      case 'doors':
        return (
          <DoorChecks
            id={id}
            legend={field.label}
            doors={field.doors}
            empty={field.empty}
            chosen={ids(value)}
            onChange={(chosen) => set(field.name, chosen.map(String))}
            after={after}
          />
        );
      case 'sequence': {
        const list = Array.isArray(value) ? value : [];
        return (
          <fieldset>
            <legend>{field.legend(current)}</legend>
            <ol class="roster-cycle">
              {list.map((item, i) => (
                <li>
                  <label for={`${id}-${i}`}>{field.itemLabel(i, current)}</label>
                  <select
                    id={`${id}-${i}`}
                    value={item}
                    onChange={(e) =>
                      set(
                        field.name,
                        list.map((x, j) => (j === i ? (e.target as HTMLSelectElement).value : x)),
                      )
                    }
                  >
                    {field.options.map((o) => (
                      <option value={o.value}>{o.label}</option>
                    ))}
                  </select>
                </li>
              ))}
            </ol>
            <p class="inline-form">
              <button type="button" class="secondary" disabled={list.length >= field.max} onClick={() => set(field.name, [...list, ''])}>
                {field.addLabel}
              </button>
              <button type="button" class="secondary" disabled={list.length <= 1} onClick={() => set(field.name, list.slice(0, -1))}>
                {field.removeLabel}
              </button>
            </p>
            {after}
          </fieldset>
        );
      }
      case 'select':
        return (
          <p class="field">
            <label for={id}>{field.label}</label>
            <select id={id} value={text} onChange={onText} {...aria}>
              {optionList(field.options)}
            </select>
            {after}
          </p>
        );
      case 'person':
        return (
          <PersonSelect
            id={id}
            label={field.label}
            companyId={field.companyId}
            exclude={field.exclude}
            value={text}
            onChange={(v) => set(field.name, v)}
            onOptions={(options) =>
              setLoaded((before) => (JSON.stringify(before[field.name]) === JSON.stringify(options) ? before : { ...before, [field.name]: options }))
            }
            aria={aria}
            after={after}
          />
        );
      default: {
        const type = field.kind === 'datetime' ? 'datetime-local' : field.kind;
        return (
          <p class="field">
            <label for={id}>{field.label}</label>
            <input
              id={id}
              type={field.kind === 'text' ? undefined : type}
              value={text}
              onInput={onText}
              required={'required' in field ? field.required : undefined}
              maxLength={field.kind === 'text' ? field.maxLength : undefined}
              size={field.kind === 'text' ? field.size : undefined}
              inputMode={field.kind === 'text' && field.digits ? 'numeric' : undefined}
              pattern={field.kind === 'text' && field.digits ? '[0-9]*' : undefined}
              min={field.kind === 'number' ? field.min : undefined}
              max={field.kind === 'number' ? field.max : undefined}
              step={field.kind === 'number' ? (field.step ?? 1) : undefined}
              {...aria}
            />
            {after}
          </p>
        );
      }
    }
  }

  const confirmation = props.confirm && (
    <dialog ref={dialog} aria-label={props.confirm.title} class="confirm">
      <form
        method="dialog"
        onSubmit={async (event) => {
          const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.value === 'confirm') await send();
        }}
      >
        <h2>{props.confirm.title}</h2>
        {changes.length > 0 ? (
          <ul class="decision-list">
            {changes.map((line) => (
              <li>{line}</li>
            ))}
          </ul>
        ) : (
          <p>The stored values change, the rules in words stay the same.</p>
        )}
        {props.confirm.note}
        <p class="inline-form">
          <button type="submit" value="cancel" class="secondary" formNoValidate autofocus>
            Cancel
          </button>
          <button type="submit" value="confirm" class="danger">
            {props.confirm.confirmLabel}
          </button>
        </p>
      </form>
    </dialog>
  );

  if (props.inline) {
    return (
      <>
        {form}
        {confirmation}
      </>
    );
  }
  return (
    <Section title={props.title}>
      {form}
      {confirmation}
    </Section>
  );
}

/**
 * "New <noun>" or, while a record is edited, "Edit <noun> <name>": one form for both (remounted when
 * the record changes, so it starts from that record), "Cancel editing" ending the edit.
 */
export function EntityEditor<E extends { id: number; name: string }>({
  noun,
  short = noun,
  idPrefix,
  editing,
  fields,
  blank,
  valuesOf,
  create,
  update,
  onDone,
}: {
  /** "absence type": New absence type, Create absence type. */
  noun: string;
  /** The word on the edit's title and buttons, when shorter ("level" for "access level"). */
  short?: string;
  idPrefix: string;
  editing: E | null;
  fields: Field[];
  blank: Values;
  valuesOf: (record: E) => Values;
  create: (values: Values) => Promise<OperationResult<unknown>>;
  update: (id: number, values: Values) => Promise<OperationResult<unknown>>;
  /** After a save or a cancelled edit: the page ends the edit and reads its list again. */
  onDone: () => void;
}) {
  return (
    <EntityForm
      key={editing?.id ?? 'new'}
      title={editing ? `Edit ${short} ${editing.name}` : `New ${noun}`}
      idPrefix={editing ? `${idPrefix}-${editing.id}` : `${idPrefix}-new`}
      fields={fields}
      initial={editing ? valuesOf(editing) : blank}
      submitLabel={editing ? `Save ${short}` : `Create ${short}`}
      save={(values) => (editing ? update(editing.id, values) : create(values))}
      onSaved={onDone}
      onCancel={editing ? onDone : undefined}
    />
  );
}

/** Fields in blocks: a run of the same group is one fieldset; inside, a run of the same row is one line. */
function layout(fields: Field[]): Array<{ group?: string; rows: Field[][] }> {
  const blocks: Array<{ group?: string; rows: Field[][] }> = [];
  for (const field of fields) {
    let block = blocks.at(-1);
    if (!block || block.group !== field.group) blocks.push((block = { group: field.group, rows: [] }));
    const row = block.rows.at(-1);
    if (row && field.row && row[0]!.row === field.row) row.push(field);
    else block.rows.push([field]);
  }
  return blocks;
}

/** A search box narrowing a list, with what it found said beside it. */
function SearchField({ id, label, value, onInput, found }: { id: string; label: string; value: string; onInput: (value: string) => void; found: string }) {
  return (
    <p class="field">
      <label for={id}>{label}</label>
      <input id={id} type="search" maxLength={100} value={value} onInput={(e) => onInput((e.target as HTMLInputElement).value)} />
      <span class="hint" role="status">
        {found}
      </span>
    </p>
  );
}

/** Doors to tick, grouped by area; with more than a screenful, a search narrows the list (ticks are kept). */
export function DoorChecks({
  id,
  legend,
  doors,
  empty,
  chosen,
  onChange,
  after,
}: {
  id: string;
  legend: string;
  doors: DoorOption[];
  empty: string;
  chosen: number[];
  onChange: (chosen: number[]) => void;
  after?: ComponentChildren;
}) {
  const [search, setSearch] = useState('');
  const many = doors.length > 12;
  const words = search.trim().toLowerCase();
  const listed = words ? doors.filter((d) => `${d.label} ${d.group}`.toLowerCase().includes(words)) : doors;
  const groups = [...new Set(listed.map((d) => d.group))];
  const toggle = (door: number) => onChange(chosen.includes(door) ? chosen.filter((x) => x !== door) : [...chosen, door]);
  return (
    <fieldset class="door-checks">
      <legend>{legend}</legend>
      {doors.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <>
          {many && (
            <SearchField
              id={`${id}-search`}
              label="Find doors by name, controller or area"
              value={search}
              onInput={setSearch}
              found={`${chosen.length} chosen; ${listed.length} of ${doors.length} listed`}
            />
          )}
          {groups.map((group) => {
            const inGroup = listed.filter((d) => d.group === group);
            const all = inGroup.every((d) => chosen.includes(d.id));
            return (
              <fieldset class="door-group">
                <legend>{group}</legend>
                {many && (
                  <button
                    type="button"
                    class="link"
                    onClick={() =>
                      onChange(all ? chosen.filter((x) => !inGroup.some((d) => d.id === x)) : [...new Set([...chosen, ...inGroup.map((d) => d.id)])])
                    }
                  >
                    {all ? 'Untick' : 'Tick'} the {inGroup.length} listed in {group}
                  </button>
                )}
                <div class="door-group-list">
                  {inGroup.map((d) => (
                    <label class="check">
                      <input type="checkbox" checked={chosen.includes(d.id)} onChange={() => toggle(d.id)} /> {d.label}
                    </label>
                  ))}
                </div>
              </fieldset>
            );
          })}
          {listed.length === 0 && <p class="muted">No door matches “{search}”.</p>}
        </>
      )}
      {after}
    </fieldset>
  );
}

/** Doors with their area's name as their group ("Not in an area" for a controller in none). */
export function doorOptions(
  doors: Array<{ id: number; name: string; deviceId: number; device: { name: string } }>,
  areas: Array<{ name: string; deviceIds: number[] }>,
): DoorOption[] {
  const areaOf = (deviceId: number) => areas.find((a) => a.deviceIds.includes(deviceId))?.name ?? 'Not in an area';
  return doors
    .map((d) => ({ id: d.id, label: `${d.name} (${d.device.name})`, group: areaOf(d.deviceId) }))
    .sort((a, b) => a.group.localeCompare(b.group) || a.label.localeCompare(b.label));
}

/** How many people a person field lists without a search. */
const PEOPLE_LISTED = 1000;

/**
 * A person of a company: a select of the first 1,000; when the company has more, a search by name or
 * code (the service's) lists the ones that match, so anyone can be chosen at any size.
 */
export function PersonSelect({
  id,
  label,
  companyId,
  exclude,
  value,
  onChange,
  onOptions,
  aria,
  after,
}: {
  id: string;
  label: string;
  companyId: number;
  exclude?: ReadonlySet<number>;
  value: string;
  onChange: (value: string) => void;
  /** The options listed (the first is what an empty value shows). */
  onOptions: (options: Option[]) => void;
  aria?: Record<string, string | undefined>;
  after?: ComponentChildren;
}) {
  const [search, setSearch] = useState('');
  const words = search.trim();
  const [people] = useQuery({ query: CompanyPeopleDocument, variables: { companyId, search: words || null, first: PEOPLE_LISTED }, pause: !companyId });
  const [all] = useQuery({ query: CompanyPeopleDocument, variables: { companyId, search: null, first: PEOPLE_LISTED }, pause: !companyId });
  const more = (all.data?.employees.totalCount ?? 0) > PEOPLE_LISTED;
  const options = (people.data?.employees.nodes ?? [])
    .filter((e) => !exclude?.has(e.id))
    .map((e) => ({ value: String(e.id), label: `${e.name} ${e.lastname} (${e.code})` }));
  const key = options.map((o) => o.value).join(',');
  useEffect(() => onOptions(options), [key]);
  return (
    <div class="person-field">
      {more && (
        <SearchField
          id={`${id}-search`}
          label="Search by name or code"
          value={search}
          onInput={setSearch}
          found={`The company has ${all.data!.employees.totalCount} people; ${people.data?.employees.totalCount ?? 0} match.`}
        />
      )}
      <p class="field">
        <label for={id}>{label}</label>
        <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)} {...aria}>
          {options.map((o) => (
            <option value={o.value}>{o.label}</option>
          ))}
        </select>
        {after}
      </p>
    </div>
  );
}
