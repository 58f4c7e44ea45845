import { expect } from 'chai';
import pino from 'pino';
import { FAILING_AFTER, PeriodicJobs } from '../../../src/jobs/periodic-jobs';
import { isPoisonError, writeWithoutPoison } from '../../../src/jobs/poison';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PeriodicJobs', () => {
  let jobs: PeriodicJobs;
  afterEach(() => jobs?.stop());

  it('keeps running a job after a run rejects (a chained promise would stop for good)', async () => {
    jobs = new PeriodicJobs({ logger });
    let runs = 0;
    jobs.add('flaky', 5, async () => {
      runs += 1;
      if (runs === 1) throw new Error('first run fails');
    });
    jobs.start();
    const deadline = Date.now() + 5_000;
    while (runs < 4 && Date.now() < deadline) await sleep(5);
    expect(runs).to.be.at.least(4);
    expect(jobs.failing()).to.deep.equal([]);
  });

  it(`reports a job as failing after ${FAILING_AFTER} failed runs in a row, and no longer once a run succeeds`, async () => {
    const outcomes: string[] = [];
    const gauge = new Map<string, number>();
    jobs = new PeriodicJobs({
      logger,
      sink: { jobRun: (job, outcome) => outcomes.push(`${job}:${outcome}`), jobConsecutiveFailures: (job, n) => gauge.set(job, n) },
    });
    let healthy = false;
    jobs.add('db_work', 60_000, async () => {
      if (!healthy) throw new Error('connection refused');
    });
    jobs.add('other', 60_000, async () => undefined);
    for (let i = 1; i < FAILING_AFTER; i++) await jobs.runNow('db_work');
    expect(jobs.failing()).to.deep.equal([]);
    await jobs.runNow('db_work');
    expect(jobs.failing()).to.deep.equal(['db_work']);
    expect(gauge.get('db_work')).to.equal(FAILING_AFTER);
    expect(jobs.states().find((s) => s.name === 'db_work')?.lastError).to.equal('connection refused');
    healthy = true;
    await jobs.runNow('db_work');
    expect(jobs.failing()).to.deep.equal([]);
    expect(gauge.get('db_work')).to.equal(0);
    expect(outcomes.filter((o) => o === 'db_work:failed')).to.have.length(FAILING_AFTER);
    expect(outcomes.at(-1)).to.equal('db_work:ok');
  });

  it('a run that fails only for want of the database is not the job failing: readiness stays clear after an outage, however long', async () => {
    // Regression: after a failover the attendance job stayed in failing() (and /readyz at 503) for a
    // minute, until its first complete run after the outage; its failures were the outage's.
    const gauge = new Map<string, number>();
    jobs = new PeriodicJobs({
      logger,
      sink: { jobRun: () => undefined, jobConsecutiveFailures: (job, n) => gauge.set(job, n) },
      databaseUnavailable: (error) => (error as { code?: string }).code === 'ECONNREFUSED',
    });
    let failure: Error | null = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    jobs.add('attendance', 60_000, async () => {
      if (failure) throw failure;
    });
    for (let i = 0; i < FAILING_AFTER * 4; i++) await jobs.runNow('attendance');
    expect(jobs.failing()).to.deep.equal([]);
    expect(jobs.states()[0]).to.include({ consecutiveFailures: 0, waitingForDatabase: true, lastError: 'connect ECONNREFUSED' });
    // The database is back but the job is broken: that counts.
    failure = new Error('column "x" does not exist');
    for (let i = 0; i < FAILING_AFTER; i++) await jobs.runNow('attendance');
    expect(jobs.failing()).to.deep.equal(['attendance']);
    expect(jobs.states()[0]).to.include({ waitingForDatabase: false });
    failure = null;
    await jobs.runNow('attendance');
    expect(jobs.failing()).to.deep.equal([]);
    expect(gauge.get('attendance')).to.equal(0);
  });

  it('never overlaps two runs of one job', async () => {
    jobs = new PeriodicJobs({ logger });
    let active = 0;
    let maxActive = 0;
    jobs.add('slow', 1, async () => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await sleep(20);
      active -= 1;
    });
    jobs.start();
    await Promise.all([jobs.runNow('slow'), jobs.runNow('slow'), jobs.runNow('slow')]);
    await sleep(50);
    expect(maxActive).to.equal(1);
  });

  it('stops scheduling after stop() and waits for the run in progress', async () => {
    jobs = new PeriodicJobs({ logger });
    let runs = 0;
    let finished = false;
    jobs.add('tick', 1, async () => {
      runs += 1;
      await sleep(10);
      finished = true;
    });
    jobs.start();
    while (runs === 0) await sleep(1);
    await jobs.stop();
    expect(finished).to.equal(true);
    const after = runs;
    await sleep(30);
    expect(runs).to.equal(after);
  });
});

describe('writeWithoutPoison', () => {
  const dataException = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  const connectionLost = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });

  it('classifies data and integrity errors as poison, connection errors as transient', () => {
    expect(isPoisonError(dataException)).to.equal(true);
    expect(isPoisonError({ code: '23505' })).to.equal(true);
    expect(isPoisonError({ code: '54000' })).to.equal(true);
    expect(isPoisonError({ code: '08P01' })).to.equal(true); // a NUL inside the statement text
    expect(isPoisonError({ code: '08006' })).to.equal(false); // connection failure
    expect(isPoisonError(connectionLost)).to.equal(false);
    expect(isPoisonError({ code: '57P01' })).to.equal(false); // admin shutdown
    expect(isPoisonError({ code: '40P01' })).to.equal(false); // deadlock: retry
    expect(isPoisonError(new Error('no code'))).to.equal(false);
  });

  it('drops only the rows the database refuses and writes the rest of the batch', async () => {
    const written: string[] = [];
    const dropped: string[] = [];
    const write = async (batch: string[]) => {
      if (batch.some((row) => row.includes('\u0000'))) throw dataException;
      written.push(...batch);
      return batch.map((row) => row.toUpperCase());
    };
    const result = await writeWithoutPoison(['a', 'b\u0000', 'c'], write, (row) => dropped.push(row));
    expect(written).to.deep.equal(['a', 'c']);
    expect(result).to.deep.equal(['A', 'C']);
    expect(dropped).to.deep.equal(['b\u0000']);
  });

  it('rejects on a transient failure so that the caller keeps the batch', async () => {
    const dropped: string[] = [];
    let error: unknown = null;
    await writeWithoutPoison(
      ['a', 'b'],
      async () => Promise.reject(connectionLost),
      (row) => dropped.push(row),
    ).catch((e) => (error = e));
    expect(error).to.equal(connectionLost);
    expect(dropped).to.deep.equal([]);
  });
});
