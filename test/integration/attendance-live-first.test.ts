import { expect } from 'chai';
import { PeriodicJobs } from '../../src/jobs/periodic-jobs';
import { ATTENDANCE_JOB, AttendanceWorker } from '../../src/services/attendance/attendance-worker';
import { processPendingDays } from '../../src/services/attendance/pending-days';
import { subscribe, untilEventsDeliverable } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { query } from '../support/service-process';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Live first: the day of a punch made just now is computed before the days of a backfill queued
// ahead of it in the outbox. The app's own worker is off; each test drives a worker of its own.
describe('attendance worker: live punches before the backlog', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'attendance-live-first');
  });
  after(() => t.stop());

  /** A company with a terminal, `backlog` employees with a month of history uploaded, and one more employee. */
  async function setup(backlog: number, pinBase: number) {
    const ws = await createWorkspace(t.url, { maxEmployees: 1000 });
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const upload = async (lines: string[]) =>
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines.join('\n'))).text).to.match(/^OK/);
    const history: number[] = [];
    for (let i = 0; i < backlog; i++) {
      const pin = String(pinBase + i);
      history.push((await createEmployee(t.url, ws.key, c.id, { pin })).id);
      const lines: string[] = [];
      for (let day = 2; day <= 27; day++)
        lines.push(`${pin}\t2026-03-${String(day).padStart(2, '0')} 09:00:00\t0\t1\t0`, `${pin}\t2026-03-${String(day).padStart(2, '0')} 17:00:00\t1\t1\t0`);
      await upload(lines);
    }
    const livePin = String(pinBase + backlog);
    const live = await createEmployee(t.url, ws.key, c.id, { pin: livePin });
    // A clock-in now, in the terminal's time (the workspace and the terminal are in UTC).
    const nowLocal = new Date().toISOString().slice(0, 19).replace('T', ' ');
    const clockIn = async () => upload([`${livePin}\t${nowLocal}\t0\t1\t0`]);
    return { ws, history, live, today: nowLocal.slice(0, 10), clockIn };
  }
  const storedDays = async (employeeIds: number[]) =>
    Number((await query(t.config.databaseUrl!, 'select count(*) as n from attendance_day where employee_id = any($1::int[])', [employeeIds]))[0].n);
  const dayEvents = async (employeeId: number) =>
    (await query(
      t.config.databaseUrl!,
      `select id::text, data->>'date' as date from event where type = 'attendance.day.updated' and (data->>'employee_id')::int = $1 order by id`,
      [employeeId],
    )) as { id: string; date: string }[];
  const deps = () => ({ orm: t.app.database.orm, config: t.config, logger: t.app.logger, now: () => new Date() });

  it("the live lane computes and announces a live punch's day while the backfill queued before it waits; the backlog announces it no second time", async () => {
    const { history, live, today, clockIn } = await setup(20, 3000);
    await clockIn();
    await untilEventsDeliverable(t.config.databaseUrl!);
    const worker = new AttendanceWorker(deps());

    expect(await worker.serveLive()).to.be.greaterThan(0);
    const [row] = await query(
      t.config.databaseUrl!,
      'select status, cardinality(punch_ids) as punches from attendance_day where employee_id = $1 and date = $2',
      [live.id, today],
    );
    expect(row, 'the live day is stored').to.deep.include({ punches: 1 });
    expect((await dayEvents(live.id)).map((e) => e.date)).to.deep.equal([today]);
    expect(await storedDays(history), 'no day of the backfill yet').to.equal(0);

    expect(await worker.runUntilIdle()).to.be.greaterThan(0);
    expect(await storedDays(history)).to.be.greaterThan(20 * 25);
    const [liveEvent] = await dayEvents(live.id);
    const [firstBacklog] = await query(
      t.config.databaseUrl!,
      `select min(id)::text as id from event where type = 'attendance.day.updated' and (data->>'employee_id')::int = any($1::int[])`,
      [history],
    );
    expect(BigInt(liveEvent!.id) < BigInt(firstBacklog.id), 'the live day was announced before any backlog day').to.equal(true);
    expect(await dayEvents(live.id), 'the backlog recomputed the live day unchanged: no second event').to.have.length(1);
  });

  it('a wake-up runs the live lane while the main job is busy with the backlog (here: held back by queued uploads)', async () => {
    const { ws, live, today, clockIn } = await setup(5, 4000);
    const jobs = new PeriodicJobs({ logger: t.app.logger });
    // Uploads queue for a slot the whole time: the main job's run waits (5 s at most) before its batch.
    const worker = new AttendanceWorker({ ...deps(), ingestionBusy: () => true });
    worker.registerJobs(jobs);
    const sub = await subscribe(t.app, ws.id, ws.key, 'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date } } }', { e: live.id });
    let mainDone = false;
    const main = jobs.runNow(ATTENDANCE_JOB).then(() => (mainDone = true));
    try {
      await clockIn();
      worker.kick();
      const [event] = await sub.waitFor(1, 4000);
      expect(event.day.date).to.equal(today);
      expect(mainDone, 'the main run is still waiting with the backlog untouched').to.equal(false);
    } finally {
      await sub.close();
      worker.stop();
      await main;
      await jobs.stop();
    }
  });

  it('a backlog batch takes one page of events (rows whole), so the live lane waits for a page, not for the whole backlog', async () => {
    const { orm, config, logger, now } = deps();
    const ctx = { principal: { kind: 'operator' as const }, em: orm.em.fork(), requestId: 'test', logger, now, config };
    // What earlier tests left, and the day events that working it off writes in turn.
    for (;;) {
      const drained = await processPendingDays(ctx, { wait: false });
      if (!drained.more && drained.events === 0) break;
    }
    const { history } = await setup(20, 5000); // 20 uploads of 52 punches, one outbox row each
    await untilEventsDeliverable(t.config.databaseUrl!);
    const first = await processPendingDays(ctx, { wait: false, eventPage: 100 });
    expect(first.events, 'the row reaching 100 events ends the page').to.be.within(100, 151);
    expect(first.more).to.equal(true);
    expect(await storedDays(history), 'the days of two or three employees').to.be.within(2 * 26, 3 * 28);
    const pages = [first.events];
    for (let more = true; more;) {
      const batch = await processPendingDays(ctx, { wait: false, eventPage: 100 });
      pages.push(batch.events);
      more = batch.more;
    }
    expect(Math.max(...pages), 'no batch took more than its page and one row').to.be.at.most(151);
    expect(pages.length).to.be.at.least(Math.ceil((20 * 52) / 151));
    expect(await storedDays(history)).to.be.greaterThan(20 * 25);
  });
});
