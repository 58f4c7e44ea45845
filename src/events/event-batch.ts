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
// Readers of many events expand rows here, in JS: expanding them in SQL (`jsonb_object_agg` per
// event) measured 10-16 µs an event, a third of what storing the punch costs. A webhook delivery,
// one event, takes its payload from SQL (eventRowHolding).
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
    select x.id, x.workspace_id, x.type, x.created_at, x.span${options.payload ? `, ${data} as event_data` : ''} from event x
    where x.id <= ${idSql} and x.id > ${idSql} - ${MAX_SPAN} order by x.id desc limit 1) ${alias} on ${idSql} < ${alias}.id + ${alias}.span`;
}
