import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { LEGACY_PASSWORD, PASSWORD_FILE, startEmbeddedPostgres } from '../../src/db/embedded-postgres';

// The embedded PostgreSQL used one fixed user and password for every data folder: any local process
// could connect to 127.0.0.1 with them and read every workspace. Each data folder now has a random
// password (a file readable by its owner only); a folder made with the fixed one is given a random
// one at its next start, keeping its data. The server listens on 127.0.0.1 only, no Unix socket.
describe('embedded PostgreSQL: a random password per data folder, 127.0.0.1 only', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const tempDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `timegate-pgpw-${label}-`));
    // As root, PostgreSQL runs as `postgres`, which must enter the folder (mkdtemp makes it 0700).
    fs.chmodSync(dir, 0o755);
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Connects as the service's user with `password`: the SQLSTATE of the refusal, or null when accepted. */
  async function tryConnect(serverUrl: string, password: string): Promise<string | null> {
    const url = new URL(serverUrl);
    const client = new pg.Client({ host: url.hostname, port: Number(url.port), user: url.username, password, database: 'postgres' });
    try {
      await client.connect();
      return null;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const passwordOf = (dataDir: string) => fs.readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8').trim();

  it('a new folder gets a random password in a 0600 file; the fixed password of old is refused; only 127.0.0.1, no socket', async () => {
    const dataDir = tempDir('new');
    const server = await startEmbeddedPostgres({ dataDir, port: null });
    try {
      const file = path.join(dataDir, PASSWORD_FILE);
      expect(fs.statSync(file).mode & 0o777, 'password file mode').to.equal(0o600);
      const password = passwordOf(dataDir);
      expect(password).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(await tryConnect(server.serverUrl('postgres'), LEGACY_PASSWORD), 'the fixed password').to.equal('28P01');
      expect(await tryConnect(server.serverUrl('postgres'), password)).to.equal(null);
      expect(decodeURIComponent(new URL(server.serverUrl('postgres')).password)).to.equal(password);

      const client = new pg.Client({ connectionString: server.serverUrl('postgres') });
      await client.connect();
      try {
        const settings = await client.query(
          `select name, setting from pg_settings where name in ('listen_addresses', 'unix_socket_directories') order by name`,
        );
        expect(settings.rows).to.deep.equal([
          { name: 'listen_addresses', setting: '127.0.0.1' },
          { name: 'unix_socket_directories', setting: '' },
        ]);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
    // A second start of the folder keeps its password.
    const again = await startEmbeddedPostgres({ dataDir, port: null });
    try {
      expect(await tryConnect(again.serverUrl('postgres'), passwordOf(dataDir))).to.equal(null);
    } finally {
      await again.stop();
    }
  });

  it('a folder made with the fixed password is given a random one at its next start, and keeps its data', async () => {
    const dataDir = tempDir('old');
    // A folder as the service left it before: the role's password is the fixed one, no password file.
    const first = await startEmbeddedPostgres({ dataDir, port: null });
    const setup = new pg.Client({ connectionString: first.serverUrl('postgres') });
    await setup.connect();
    await setup.query('create table kept (v text)');
    await setup.query(`insert into kept values ('tenant data')`);
    await setup.query(`alter role timegate password '${LEGACY_PASSWORD}'`);
    await setup.end();
    await first.stop();
    fs.rmSync(path.join(dataDir, PASSWORD_FILE));

    const upgraded = await startEmbeddedPostgres({ dataDir, port: null });
    try {
      expect(fs.statSync(path.join(dataDir, PASSWORD_FILE)).mode & 0o777).to.equal(0o600);
      expect(await tryConnect(upgraded.serverUrl('postgres'), LEGACY_PASSWORD), 'the fixed password after the upgrade').to.equal('28P01');
      const client = new pg.Client({ connectionString: upgraded.serverUrl('postgres') });
      await client.connect();
      try {
        expect((await client.query('select v from kept')).rows).to.deep.equal([{ v: 'tenant data' }]);
      } finally {
        await client.end();
      }
    } finally {
      await upgraded.stop();
    }
  });
});
