/**
 * The data-health alert rules (charts/retail-data/rules, docs/data-health.md) checked and unit-tested
 * by the real promtool (Debian `prometheus`), and the chart's PrometheusRule, rendered by the real
 * helm, carrying exactly the same groups.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CHART_DIR, findHelm } from '../harness/helm.js';
import { byKind, renderChart } from './render.js';

const run = promisify(execFile);
const RULES = join(CHART_DIR, 'rules/data-health.rules.yaml');
const RULE_TESTS = join(CHART_DIR, 'rules/data-health.rules.test.yaml');

const promtool = await run('sh', ['-c', 'command -v promtool']).then(({ stdout }) => stdout.trim(), () => '');
const promtoolMissing = promtool ? null : 'promtool is not installed (apt-get install prometheus); alert rule tests skipped';
if (promtoolMissing) console.warn(`prometheus-rules.test: ${promtoolMissing}`);
const lookup = findHelm();
const helm = 'helm' in lookup ? lookup.helm : '';
if ('missing' in lookup) console.warn(`prometheus-rules.test: ${lookup.missing}`);

const work = mkdtempSync(join(tmpdir(), 'retail-rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(promtoolMissing !== null)('data-health alert rules (real promtool)', () => {
  it('promtool check rules accepts the plain rule file', async () => {
    const { stdout } = await run(promtool, ['check', 'rules', RULES]);
    expect(stdout).toMatch(/SUCCESS: 3 rules found/);
  });

  it('promtool test rules: the alerts fire once per marketplace and kind after their hold, and stop after recovery', async () => {
    const { stdout } = await run(promtool, ['test', 'rules', RULE_TESTS]);
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('a rule test that expects the wrong alert fails (the tests can fail)', async () => {
    const tests = parse(readFileSync(RULE_TESTS, 'utf8'));
    tests.rule_files = [RULES];
    tests.tests[0].alert_rule_test[0].exp_alerts = [{ exp_labels: { severity: 'critical', marketplace: 'US', kind: 'product' } }];
    const file = join(work, 'wrong.test.yaml');
    writeFileSync(file, stringify(tests));
    await expect(run(promtool, ['test', 'rules', file])).rejects.toMatchObject({ code: 1 });
  });
});

describe.skipIf(!helm)('the chart\'s PrometheusRule (real helm)', () => {
  it('is off by default', async () => {
    expect(byKind(await renderChart(helm), 'PrometheusRule')).toEqual([]);
  });

  it('behind telemetry.alertRules.enabled renders the plain file\'s groups, with the extra labels, and promtool accepts them', async () => {
    const [rule, ...more] = byKind(await renderChart(helm, { set: ['telemetry.alertRules.enabled=true', 'telemetry.alertRules.labels.release=kube-prometheus'] }), 'PrometheusRule');
    expect(more).toEqual([]);
    expect(rule!.metadata.labels).toMatchObject({ release: 'kube-prometheus', 'app.kubernetes.io/part-of': 'retail-data' });
    expect(rule!.spec.groups).toEqual(parse(readFileSync(RULES, 'utf8')).groups);
    if (promtool) {
      const file = join(work, 'rendered.rules.yaml');
      writeFileSync(file, stringify({ groups: rule!.spec.groups }));
      await run(promtool, ['check', 'rules', file]);
    }
  });
});
