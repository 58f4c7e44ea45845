import { expect } from 'chai';
import pg from 'pg';
import { batchDataSql, eventFieldsSql, eventRowHolding, expandEventRow, type EventRow } from '../../src/events/event-batch';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The batch layout of the outbox (src/events/event-batch.ts) round-tripped through PostgreSQL: a
 * set of events built in SQL as one batch row reads back, in JS, in SQL for one event and in SQL for
 * a few fields, exactly as the same events built one row each (same payloads, same key order).
 */
describe('outbox batch layout: built in SQL, read back three ways', () => {
  let t: TestApp;
  let client: pg.Client;
  before(async () => {
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false', TIMEGATE_WEBHOOK_POLL_MS: '3600000' }, 'event_batch_layout');
    client = new pg.Client({ connectionString: t.config.databaseUrl! });
    await client.connect();
    await client.query('begin');
  });
  after(async () => {
    await client?.query('rollback');
    await client?.end();
    await t?.stop();
  });

  const source = `src(n, id, pin, employee_id, local_time) as (values
      (0, 101, '42', 5, '2026-04-01T08:00:00'), (1, 102, '7', null::int, '2026-04-01T08:01:00'), (2, 103, '42', 5, '2026-04-01T17:00:00'))`;
  const common = `jsonb_build_object('company_id', 3, 'device_id', 9, 'time_zone', 'Europe/Berlin')`;
  const fields = { id: 'src.id', pin: 'src.pin', employee_id: 'src.employee_id', local_time: 'src.local_time' };
  const firstId = 4398046511104000n;

  it('a batch row of three events equals the three events stored alone, read in JS, in SQL per event and in SQL per field', async () => {
    const singles = (
      await client.query<{ data: Record<string, unknown> }>(
        `with ${source} select ${batchDataSql(common, fields, 'src.n')} as data from src group by n order by n`,
      )
    ).rows;
    // jsonb gives each single payload's keys in its own order; the text form keeps that order.
    const singleTexts = (
      await client.query<{ text: string }>(`with ${source} select (${batchDataSql(common, fields, 'src.n')})::text as text from src group by n order by n`)
    ).rows.map((r) => r.text);
    const [stored] = (
      await client.query<EventRow>(
        `with ${source}, built as (select ${batchDataSql(common, fields, 'src.n')} as data, count(*)::int as span from src)
         insert into event (id, workspace_id, type, data, created_at, span)
         select $1::bigint, 1, 'attendance.created', data, now(), span from built
         returning id::text, workspace_id, type, data, created_at, span`,
        [firstId.toString()],
      )
    ).rows;
    expect(stored!.span).to.equal(3);
    expect(Object.keys(stored!.data).sort()).to.deep.equal(['common', 'keys', 'rows']);

    // In JS: payloads and key order (what a subscriber or a replay gets).
    const events = expandEventRow(stored!);
    expect(events.map((e) => e.id)).to.deep.equal(['4398046511104000', '4398046511104001', '4398046511104002']);
    expect(events.map((e) => e.data)).to.deep.equal(singles.map((s) => s.data));
    expect(events.map((e) => JSON.stringify(e.data).replaceAll(',"', ', "').replaceAll('":', '": '))).to.deep.equal(singleTexts);

    // In SQL, one event (what a webhook delivery sends).
    for (const [i, single] of singleTexts.entries()) {
      const id = (firstId + BigInt(i)).toString();
      const [row] = (
        await client.query<{ text: string }>(
          `select h.event_data::text as text from (select $1::bigint as id) w join ${eventRowHolding('h', 'w.id', { payload: true })}`,
          [id],
        )
      ).rows;
      expect(row?.text, `event ${id}`).to.equal(single);
    }

    // In SQL, a few fields of every event (what the attendance worker reads).
    const picked = (
      await client.query(
        `with ready as (select * from event where id = $1::bigint), picked as (${eventFieldsSql('ready', ['employee_id', 'local_time'], "type = 'attendance.created'")})
         select * from picked`,
        [firstId.toString()],
      )
    ).rows;
    expect(picked).to.deep.equal(
      singles.map((s) => ({ employee_id: s.data.employee_id === null ? null : String(s.data.employee_id), local_time: s.data.local_time })),
    );
  });
});
