// The operations artefacts under deploy/ stay true: the alert rules load, pass their unit tests and
// each has a runbook; the Grafana dashboard's expressions parse; and every metric the rules and the
// dashboard read is one the service exposes at /metrics (read from a running service).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import * as yaml from 'js-yaml';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

const root = path.resolve(__dirname, '..', '..', '..');
const PROMETHEUS = path.join(root, 'deploy', 'prometheus');
const DASHBOARD = path.join(root, 'deploy', 'grafana', 'timegate.json');
const OPERATIONS_DOC = path.join(root, 'docs', 'operations.md');

interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}
interface RuleTest {
  name?: string;
  alert_rule_test?: AlertTest[];
  promql_expr_test?: { expr: string; exp_samples?: { labels?: string }[] }[];
}

/** promtool (Debian package `prometheus`, installed by .ci/run), with its output. */
function promtool(args: string[], cwd = PROMETHEUS): { status: number | null; output: string } {
  const run = spawnSync(process.env.PROMTOOL_PATH ?? 'promtool', args, { cwd, encoding: 'utf8', timeout: 300_000 });
  expect(run.error, 'promtool is not installed: Debian package `prometheus` (.ci/run installs it)').to.equal(undefined);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const rules = (): Rule[] =>
  (yaml.load(fs.readFileSync(path.join(PROMETHEUS, 'alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges,
 * grouping label lists, durations, numbers, keywords and function names are taken out.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+-?[\dsmhdwy]+/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const [, number, name, call] = m;
    if (number !== undefined || call !== undefined || PROMQL_KEYWORDS.has(name!.toLowerCase())) continue;
    names.add(name!);
  }
  return [...names];
}

/** Every sample name /metrics can carry, from its `# TYPE` lines (a histogram's _bucket, _sum and _count). */
function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name! + suffix);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(name! + suffix);
    else names.add(name!);
  }
  return names;
}

/** GitHub's anchor of a Markdown heading. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

interface DashboardPanel {
  id: number;
  title: string;
  type: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
  panels?: DashboardPanel[];
}

function dashboardPanels(): DashboardPanel[] {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: DashboardPanel[] };
  const all = (panels: DashboardPanel[]): DashboardPanel[] => panels.flatMap((p) => [p, ...all(p.panels ?? [])]);
  return all(dashboard.panels);
}

function dashboardExpressions(): { panel: string; expr: string }[] {
  return dashboardPanels().flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
}

/** Grafana's variables replaced by what Prometheus would be sent. */
const withoutVariables = (expr: string) =>
  expr
    .replace(/\$__rate_interval|\$\{__rate_interval\}/g, '5m')
    .replace(/\$__interval|\$\{__interval\}/g, '1m')
    .replace(/\$__range|\$\{__range\}/g, '1h')
    .replace(/\$instance|\$\{instance\}/g, '.*');

describe('operations artefacts: alert rules, their tests and runbooks, the dashboard (deploy/)', function () {
  this.timeout(300_000);
  let t: TestApp;
  let exposed: Set<string>;
  before(async () => {
    t = await startTestApp({}, 'operations-deploy');
    exposed = exposedNames((await rest(t.url, 'GET', '/metrics')).text);
  });
  after(() => t?.stop());

  it('alerts.yml passes `promtool check rules`, and the example prometheus.yml `promtool check config`', () => {
    const checkRules = promtool(['check', 'rules', 'alerts.yml']);
    expect(checkRules.status, checkRules.output).to.equal(0);
    const checkConfig = promtool(['check', 'config', 'prometheus.yml']);
    expect(checkConfig.status, checkConfig.output).to.equal(0);
  });

  it('every rule passes its unit tests (`promtool test rules alerts.test.yml`)', () => {
    const run = promtool(['test', 'rules', 'alerts.test.yml']);
    expect(run.status, run.output).to.equal(0);
    expect(run.output).to.contain('SUCCESS');
  });

  it('every alert is tested firing and silent, carries a severity, and has a runbook section in docs/operations.md', () => {
    const tests = (yaml.load(fs.readFileSync(path.join(PROMETHEUS, 'alerts.test.yml'), 'utf8')) as { tests: RuleTest[] }).tests;
    const alertTests = tests.flatMap((test) => test.alert_rule_test ?? []);
    const headings = new Set([...fs.readFileSync(OPERATIONS_DOC, 'utf8').matchAll(/^#{2,4} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
    const slos = rules()
      .filter((r) => r.record === 'timegate_slo:objective')
      .map((r) => r.labels!.slo!);
    expect(slos).to.have.length(7);
    const alerts = rules().filter((r) => r.alert);
    expect(alerts.length).to.be.at.least(14);
    const problems: string[] = [];
    for (const alert of alerts) {
      const name = alert.alert!;
      const mine = alertTests.filter((test) => test.alertname === name);
      if (!mine.some((test) => (test.exp_alerts ?? []).length > 0)) problems.push(`${name}: no test where it fires`);
      if (!mine.some((test) => (test.exp_alerts ?? []).length === 0)) problems.push(`${name}: no test where it stays silent`);
      if (!['page', 'ticket'].includes(alert.labels?.severity ?? '')) problems.push(`${name}: severity is neither page nor ticket`);
      if (!alert.annotations?.summary || !alert.annotations.description) problems.push(`${name}: summary or description missing`);
      const runbook = alert.annotations?.runbook_url ?? '';
      const anchors = runbook.includes('{{ $labels.slo }}') ? slos.map((slo) => runbook.replace('{{ $labels.slo }}', slo)) : [runbook];
      for (const url of anchors) {
        const match = /^docs\/operations\.md#(.+)$/.exec(url);
        if (!match || !headings.has(match[1]!)) problems.push(`${name}: runbook ${url} is no heading of docs/operations.md`);
      }
    }
    // Each SLO's error ratio is computed in the SLI test.
    const sliTest = tests.find((test) => test.name === 'slis')!;
    const sliLabels = sliTest.promql_expr_test!.flatMap((e) => (e.exp_samples ?? []).map((s) => s.labels ?? '')).join(' ');
    for (const slo of slos) if (!sliLabels.includes(`slo="${slo}"`)) problems.push(`SLO ${slo}: its error ratio is not tested`);
    expect(problems).to.deep.equal([]);
  });

  it('every metric the rules read is one the service exposes (or a rule records; `up` is Prometheus’ own)', () => {
    const recorded = new Set(rules().flatMap((r) => (r.record ? [r.record] : [])));
    const unknown = rules()
      .flatMap((r) => metricNames(r.expr).map((name) => ({ rule: r.record ?? r.alert, name })))
      .filter(({ name }) => !(exposed.has(name) || recorded.has(name) || name === 'up'));
    expect(unknown).to.deep.equal([]);
  });

  it('every dashboard expression parses (`promtool check rules` on a file of them) and reads only metrics the service exposes or the rules record', () => {
    const expressions = dashboardExpressions();
    expect(expressions.length).to.be.at.least(30);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timegate-dashboard-'));
    try {
      const file = path.join(folder, 'dashboard-rules.yml');
      const generated = {
        groups: [{ name: 'dashboard', rules: expressions.map((e, i) => ({ record: `dashboard:panel_${i}`, expr: withoutVariables(e.expr) })) }],
      };
      fs.writeFileSync(file, yaml.dump(generated));
      const check = promtool(['check', 'rules', file], folder);
      expect(check.status, check.output).to.equal(0);
      expect(check.output).to.contain(`SUCCESS: ${expressions.length} rules found`);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const recorded = new Set(rules().flatMap((r) => (r.record ? [r.record] : [])));
    const unknown = expressions
      .flatMap((e) => metricNames(withoutVariables(e.expr)).map((name) => ({ panel: e.panel, name })))
      .filter(({ name }) => !(name.includes(':') ? recorded.has(name) : exposed.has(name)));
    expect(unknown).to.deep.equal([]);
  });

  it("the dashboard's panels have ids of their own, fit the 24-column grid without overlapping, and query the chosen data source", () => {
    const panels = dashboardPanels();
    expect(new Set(panels.map((p) => p.id)).size).to.equal(panels.length);
    const cells = new Set<string>();
    for (const { title, type, gridPos, datasource, targets } of panels) {
      expect(gridPos.x + gridPos.w, title).to.be.at.most(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `${title} overlaps another panel`).to.equal(false);
          cells.add(`${x},${y}`);
        }
      if (type === 'row') continue;
      expect(datasource?.uid, title).to.equal('${datasource}');
      for (const target of targets ?? []) expect(target.datasource?.uid, title).to.equal('${datasource}');
    }
  });

  it('the metric-name reader finds the metrics of an expression, and only them (so a misspelt one is caught)', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le, route) (rate(timegate_http_request_duration_seconds_bucket{route!~"/healthz|x"}[5m]))) > on (slo) 1e3 * timegate_slo:objective offset 1h',
      ).sort(),
    ).to.deep.equal(['timegate_http_request_duration_seconds_bucket', 'timegate_slo:objective']);
    expect(metricNames('sum(rate(timegate_http_request_total[5m]))').filter((name) => !exposed.has(name))).to.deep.equal(['timegate_http_request_total']);
    expect(metricNames('label_replace(up, "class", "${1}xx", "status", "(.)..") and bool timegate_devices')).to.deep.equal(['up', 'timegate_devices']);
  });
});
