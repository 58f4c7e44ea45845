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

  it('the README documents every environment variable', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const setting of Object.values(settings)) expect(readme, setting.env).to.contain(`\`${setting.env}\``);
  });
});
