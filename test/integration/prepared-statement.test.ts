import { expect } from 'chai';
import type { RequestContext } from '../../src/context/request-context';
import { executePrepared } from '../../src/db/prepared-statement';
import { startTestApp, type TestApp } from '../support/test-app';

// executePrepared replays knex's `?` -> `$n` conversion per statement text when the values are
// plain; these statements check that a replay never applies where the text depends on the values.
describe('prepared statements', () => {
  let t: TestApp;
  const ctx = (): RequestContext => ({
    principal: { kind: 'operator' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now: () => new Date(),
    config: t.config,
  });
  before(async () => {
    t = await startTestApp({}, 'prepared');
  });
  after(() => t.stop());

  it('binds each call its own plain values, the same text many times', async () => {
    const sum = 'select ?::int + ?::int as sum, ?::text as label, ?::timestamptz as at';
    const at = new Date('2026-11-21T10:00:00Z');
    for (const [a, b, label] of [
      [1, 2, 'one'],
      [5, 7, 'two'],
      [-3, 3, "it's"],
    ] as const) {
      const [row] = await executePrepared<{ sum: number; label: string; at: string }>(ctx(), sum, [a, b, label, at]);
      expect({ ...row, at: new Date(row!.at) }).to.deep.equal({ sum: a + b, label, at });
    }
    const [row] = await executePrepared<{ sum: number; label: string | null }>(ctx(), sum, [1, 1, null, at]);
    expect(row!.label).to.equal(null);
  });

  it('binds arrays and names identifiers per call, as knex does', async () => {
    const within = 'select count(*)::int as n from (values (1), (2), (3)) v(x) where x = any(?::int[])';
    expect(await executePrepared(ctx(), within, [[1, 2]])).to.deep.equal([{ n: 2 }]);
    expect(await executePrepared(ctx(), within, [[1, 2, 3]])).to.deep.equal([{ n: 3 }]);
    const column = 'select ?? as v from (select 1 as a, 2 as b) t';
    expect(await executePrepared(ctx(), column, ['a'])).to.deep.equal([{ v: 1 }]);
    expect(await executePrepared(ctx(), column, ['b'])).to.deep.equal([{ v: 2 }]);
  });

  it("refuses an undefined value with knex's error, also once the text is known", async () => {
    const echo = 'select ?::int as v';
    expect(await executePrepared(ctx(), echo, [4])).to.deep.equal([{ v: 4 }]);
    let error: unknown;
    await executePrepared(ctx(), echo, [undefined]).catch((e) => (error = e));
    expect(String(error)).to.match(/Undefined binding\(s\) detected/);
  });

  it('joins the transaction of its context', async () => {
    const em = t.app.database.orm.em.fork();
    await em.transactional(async (tx) => {
      await tx.execute('create temporary table prepared_probe (v int) on commit drop');
      await tx.execute('insert into prepared_probe values (42)');
      const rows = await executePrepared(withTx(ctx(), tx), 'select v from prepared_probe where v = ?::int', [42]);
      expect(rows).to.deep.equal([{ v: 42 }]);
    });
  });

  const withTx = (base: RequestContext, em: RequestContext['em']): RequestContext => ({ ...base, em });
});
