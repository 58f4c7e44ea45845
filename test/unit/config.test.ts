import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, settings } from '../../src/config/config';

const root = path.resolve(__dirname, '..', '..', '..');

describe('configuration', () => {
  it('has a default for every setting', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(8080);
    expect(config.databaseUrl).to.equal(null);
    expect(config.dataDir).to.equal(path.join(root, '.data'));
    expect(config.masterKey).to.equal(null);
  });

  it('reports every bad value in one message', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', TIMEGATE_MASTER_KEY: 'short', LOG_LEVEL: 'loud' });
      expect.fail('expected a ConfigError');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'TIMEGATE_MASTER_KEY', 'LOG_LEVEL']) expect(message).to.contain(name);
    }
  });

  it('compaction check: every 10 s by default, 0 for every full GC, no negative or fractional interval', () => {
    expect(loadConfig({}).gcCompactionSeconds).to.equal(10);
    expect(loadConfig({ TIMEGATE_GC_COMPACTION_SECONDS: '0' }).gcCompactionSeconds).to.equal(0);
    for (const bad of ['-1', '2.5', 'soon']) {
      expect(() => loadConfig({ TIMEGATE_GC_COMPACTION_SECONDS: bad }), bad).to.throw(
        ConfigError,
        `TIMEGATE_GC_COMPACTION_SECONDS must be an integer from 0 to 86400 (got "${bad}")`,
      );
    }
  });

  it('read replica: off by default, a postgres URL beside DATABASE_URL, a bound from 0 to an hour (5 s by default)', () => {
    expect(loadConfig({})).to.include({ databaseReplicaUrl: null, replicaMaxLagMs: 5000 });
    const primary = 'postgres://timegate:secret@db:5432/timegate';
    const replica = 'postgres://timegate:secret@replica:5432/timegate';
    expect(loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: replica, TIMEGATE_REPLICA_MAX_LAG_MS: '0' })).to.include({
      databaseReplicaUrl: replica,
      replicaMaxLagMs: 0,
    });
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: 'mysql://u:pw@replica/db' })).to.throw(
      ConfigError,
      'DATABASE_REPLICA_URL must start with postgres:// or postgresql:// (got "mysql://u:***@replica/db")',
    );
    expect(() => loadConfig({ DATABASE_REPLICA_URL: replica })).to.throw(ConfigError, 'DATABASE_REPLICA_URL needs DATABASE_URL');
    for (const bad of ['-1', '3600001', '1.5']) {
      expect(() => loadConfig({ DATABASE_URL: primary, TIMEGATE_REPLICA_MAX_LAG_MS: bad }), bad).to.throw(
        ConfigError,
        `TIMEGATE_REPLICA_MAX_LAG_MS must be an integer from 0 to 3600000 (got "${bad}")`,
      );
    }
  });

  it('the README documents every environment variable', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const setting of Object.values(settings)) expect(readme, setting.env).to.contain(`\`${setting.env}\``);
  });
});
