import type { App } from '../../src/app';

/**
 * Every SQL statement the app's ORM runs while `work` runs (MikroORM's `onQuery` hook), with what
 * `work` returned: for tests that count the queries a request makes.
 */
export async function statementsDuring<T>(app: App, work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const config = app.database.orm.config;
  const original = config.get('onQuery');
  const statements: string[] = [];
  config.set('onQuery', (sql: string, params: unknown[]) => (statements.push(sql), original(sql, params)));
  try {
    return { result: await work(), statements };
  } finally {
    config.set('onQuery', original);
  }
}
