import { expect } from 'chai';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm-config';
import { commandQueueChanges, notifyCommandsQueued } from '../../src/services/commands/command-queue-changes';
import { query } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

// The notice that devices have queued commands wakes their polls in this process. Given before the
// queueing transaction commits, a poll could read the queue too early, find nothing and clear the
// device's flag: the command would then wait for the next cache reload.
describe('queued-command notices', () => {
  let t: TestApp;
  let seen: number[][];
  const listener = (ids: number[]) => seen.push(ids);
  const em = () => t.app.database.orm.em.fork() as EntityManager;
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  before(async () => {
    t = await startTestApp({}, 'command-notices');
    commandQueueChanges.on('queued', listener);
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    commandQueueChanges.off('queued', listener);
    await t.stop();
  });

  it('outside a transaction: at once, each device once, and none for no device', () => {
    notifyCommandsQueued(em(), []);
    notifyCommandsQueued(em(), [7, 7, 9]);
    expect(seen).to.deep.equal([[7, 9]]);
  });

  it('inside a transaction: only once its COMMIT succeeded', async () => {
    let xid = '';
    await em().transactional(async (tx) => {
      [{ xid }] = await tx.execute<{ xid: string }[]>('select pg_current_xact_id()::text as xid');
      notifyCommandsQueued(tx, [3]);
      // A commit that takes its time: the notice must still wait for it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(seen, 'no notice before the commit').to.deep.equal([]);
    });
    expect(seen).to.deep.equal([[3]]);
    const [status] = await query(t.config.databaseUrl!, `select pg_xact_status('${xid}'::xid8) as status`);
    expect(status!.status).to.equal('committed');
  });

  it('inside a nested transaction: after the outermost COMMIT, not when its savepoint is released', async () => {
    await em().transactional(async (outer) => {
      await outer.transactional(async (inner) => {
        await inner.execute('select 1');
        notifyCommandsQueued(inner, [4]);
      });
      await tick();
      expect(seen, 'no notice at the savepoint release').to.deep.equal([]);
    });
    expect(seen).to.deep.equal([[4]]);
  });

  it('never for a transaction that rolls back', async () => {
    const failed = em().transactional(async (tx) => {
      await tx.execute('select 1');
      notifyCommandsQueued(tx, [5]);
      throw new Error('the change failed');
    });
    const error = await failed.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.equal('the change failed');
    await tick();
    expect(seen).to.deep.equal([]);
  });

  it('refuses to wait for a COMMIT on an ORM made without the commit hooks: the notice would never come', async () => {
    const bare = await MikroORM.init(ormOptions(t.config.databaseUrl!, { subscribers: [] }));
    try {
      const error = await bare.em
        .fork()
        .transactional(async (tx) => {
          await tx.execute('select 1');
          notifyCommandsQueued(tx as EntityManager, [6]);
        })
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(error?.message).to.equal('afterCommit: this ORM was made without afterCommitHooks (use ormOptions)');
      expect(seen).to.deep.equal([]);
    } finally {
      await bare.close();
    }
  });
});
