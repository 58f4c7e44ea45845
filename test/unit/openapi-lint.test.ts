import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const root = path.resolve(__dirname, '..', '..', '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
// No telemetry or update checks: the linters must work offline.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

/** The committed OpenAPI document passes the linters integrators check it with. */
describe('OpenAPI lint', () => {
  it('redocly lint (recommended ruleset): no error, no warning', () => {
    const r = spawnSync(bin('redocly'), ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).to.deep.equal([]);
    expect(report.totals).to.include({ errors: 0, warnings: 0 });
  });

  it('spectral lint (spectral:oas): no error, no warning', () => {
    const r = spawnSync(bin('spectral'), ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const problems = JSON.parse(r.stdout || '[]') as Array<{ code: string; message: string; severity: number }>;
    expect(problems.map((p) => `${p.code}: ${p.message}`)).to.deep.equal([]);
    expect(r.status).to.equal(0);
  });
});
