// Outbox rows that hold several events. A terminal upload's punches are written as one `event` row
// per MAX_SPAN punches instead of one row each: building a JSON object per punch in PostgreSQL and
// inserting and indexing a row for it cost more than the punch itself (docs/decisions.md,
// "Outbox: one row per batch of uploaded punches"). Every reader sees the same events as before:
//
// * a row with `span` n holds the events with ids `id` .. `id + n - 1`, in that order;
// * its `data` is the batch form: `common` (the fields every event of the batch shares), `keys`
//   (the other fields' names) and `rows` (per event, those fields' values in `keys` order);
// * an event's payload is `common` plus its row's fields, with its keys in the order PostgreSQL
//   gives a `jsonb` object's keys (shorter first, then bytewise), so a batched event serialises to
//   the same bytes as one stored alone.
//
// This module owns the layout: the writer builds rows in SQL (batchDataSql), readers of many events
// expand them here, in JS (expandEventRow: expanding them in SQL with `jsonb_object_agg` per event
// measured 10-16 µs an event, a third of what storing the punch costs), a webhook delivery takes
// its one event's payload in SQL (eventRowHolding), and a reader that needs only a few fields of
// every event takes them in SQL (eventFieldsSql). A test round-trips one set of events through all
// four (test/integration/event-batch-layout.test.ts).
import { storedEvent, type StoredEvent } from './event-types';

/** The most events one row holds (also the `event_span_check` constraint). */
export const MAX_SPAN = 256;

/** An outbox row as readers select it. */
export interface EventRow {
  id: string;
  workspace_id: number;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
  span: number;
}

interface BatchData {
  common: Record<string, unknown>;
  keys: string[];
  rows: unknown[][];
}

/**
 * A row that can hold an event above `after` has an id above this (`where id > firstRowAfter(after)`);
 * its events are filtered again one by one, as the row holding `after` may hold later ones too.
 */
export const firstRowAfter = (after: bigint): bigint => after - BigInt(MAX_SPAN) + 1n;

/** The keys of an object as PostgreSQL orders a jsonb object's keys: by length, then bytewise. */
function jsonbKeyOrder(keys: Iterable<string>): string[] {
  return [...keys].sort((a, b) => a.length - b.length || Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The events of one row, in id order (a single event for a span of 1). */
export function expandEventRow(row: EventRow): StoredEvent[] {
  if (Number(row.span) === 1) return [storedEvent(row)];
  const batch = row.data as unknown as BatchData;
  const first = BigInt(row.id);
  const order = jsonbKeyOrder([...Object.keys(batch.common), ...batch.keys]);
  const position = new Map(batch.keys.map((key, i) => [key, i]));
  return batch.rows.map((values, n) => {
    const data: Record<string, unknown> = {};
    for (const key of order) {
      const i = position.get(key);
      data[key] = i === undefined ? batch.common[key] : values[i];
    }
    return storedEvent({ ...row, id: (first + BigInt(n)).toString(), data });
  });
}

/** The events of these rows (in id order) with an id above `after`. */
export function eventsAfter(rows: readonly EventRow[], after: bigint): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (const row of rows) for (const event of expandEventRow(row)) if (BigInt(event.id) > after) events.push(event);
  return events;
}

/**
 * SQL: the outbox row `alias` holding the event id `idSql`, as a lateral join's condition (the
 * newest row at or below the id, and the id within its span). With `payload`, that one event's
 * payload as `alias.event_data` (built in SQL: a webhook delivery needs one event, not its whole
 * batch); without, the row's stored value is not read at all.
 */
export function eventRowHolding(alias: string, idSql: string, options: { payload: boolean }): string {
  const data = `case when x.span = 1 then x.data else (x.data->'common') || (
      select jsonb_object_agg(k.key, x.data->'rows'->(${idSql} - x.id)::int->(k.n::int - 1))
      from jsonb_array_elements_text(x.data->'keys') with ordinality k(key, n)) end`;
  return `lateral (
    select x.id, x.workspace_id, x.type, x.created_at, x.span, x.trace${options.payload ? `, ${data} as event_data` : ''} from event x
    where x.id <= ${idSql} and x.id > ${idSql} - ${MAX_SPAN} order by x.id desc limit 1) ${alias} on ${idSql} < ${alias}.id + ${alias}.span`;
}

/**
 * SQL: the `data` of the outbox row of one group of events, an aggregate over the group's rows: a
 * group of one is that event's payload (`common` plus its fields), a larger group the batch form.
 * `common` is a jsonb expression the group shares; `fields` gives each event's own fields as SQL
 * over a row of the group, in the order their values are stored; `orderBy` orders the events.
 */
export function batchDataSql(common: string, fields: Record<string, string>, orderBy: string): string {
  const keys = Object.keys(fields);
  return `case when count(*) = 1
  then ${common} || jsonb_build_object(${keys.map((k) => `'${k}', min(${fields[k]})`).join(', ')})
  else jsonb_build_object('common', ${common}, 'keys', '${JSON.stringify(keys)}'::jsonb,
    'rows', jsonb_agg(jsonb_build_array(${keys.map((k) => fields[k]).join(', ')}) order by ${orderBy})) end`;
}

/**
 * SQL: one row per event of the outbox rows of `source` (a relation with `span` and `data`, single
 * events and batches alike) that match `where`, with each of `fields` of its payload as a text
 * column of that name. A batch's rows and the fields' positions are taken out of its stored
 * (compressed) value once per batch (a materialized CTE), not once per event.
 */
export function eventFieldsSql(source: string, fields: readonly string[], where: string): string {
  const position = (field: string) =>
    `(select n - 1 from jsonb_array_elements_text(s.data->'keys') with ordinality k(key, n) where key = '${field}')::int as "${field}"`;
  return `with batches as materialized (select s.data->'rows' as items, ${fields.map(position).join(', ')} from ${source} s where (${where}) and s.span > 1)
    select ${fields.map((f) => `s.data->>'${f}' as "${f}"`).join(', ')} from ${source} s where (${where}) and s.span = 1
    union all
    select ${fields.map((f) => `b.item->>batches."${f}"`).join(', ')} from batches cross join lateral jsonb_array_elements(batches.items) b(item)`;
}
