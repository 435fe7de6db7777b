// Metrics, dashboards and alerts against a running instance: an api+scheduler process linked to the simulator,
// with a play recorded, a sync run and statistics read, so that every metric family has been registered; it runs the
// dispatcher role too, for the webhook delivery metrics.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedRun, startSyncHarness, waitFor, type SyncHarness } from '../../services/api/test/sync-harness.js';
import { exportedMetricNames, parsePromql, sampleLabels } from './promql.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TICKS = 10_000_000;

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}
interface AlertRule {
  alert: string;
  expr: string;
  annotations: { summary: string; runbook_url: string };
}

const dashboards = readdirSync(path.join(root, 'deploy/grafana'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({
    name,
    json: JSON.parse(readFileSync(path.join(root, 'deploy/grafana', name), 'utf8')) as { uid: string; panels: Panel[] },
  }));
const alertRules = (
  parse(readFileSync(path.join(root, 'deploy/prometheus/alerts.yaml'), 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
).groups.flatMap((group) => group.rules);
const queriesOf = (panels: Panel[]): Array<{ title: string; expr: string }> =>
  panels.flatMap((panel) => [
    ...(panel.targets ?? []).map((t) => ({ title: panel.title, expr: t.expr })),
    ...queriesOf(panel.panels ?? []),
  ]);

describe('metrics, Grafana dashboards and alerts of a running instance', () => {
  let h: SyncHarness;
  let exposition: string;
  let playedLibraryId: string | undefined;
  const scrape = () => fetch(`${h.harness.url}/metrics`).then((res) => res.text());
  const sample = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);

  beforeAll(async () => {
    h = await startSyncHarness('jellyfin', { ROLES: 'api,scheduler,dispatcher' });
    const settings = await h.call('POST', '/api/setActivityMonitorSettings', {
      activeSessionsInterval: 500,
      idleInterval: 1000,
      minimumPlaySeconds: 0,
      mergeWindowMinutes: 0,
    });
    expect(settings.status).toBe(200);
    const userId = h.sim.control.users().find((u) => !u.isAdministrator && !u.isDisabled)!.id;
    const itemId = h.sim.control.itemIds('Movie').find((id) => (h.sim.control.item(id)?.runTimeTicks ?? 0) > 30 * 60 * TICKS)!;
    playedLibraryId = h.sim.control.item(itemId)?.libraryId;
    const play = h.sim.control.startPlay({ userId, itemId, client: 'jellyfin-web', method: 'Transcode' });
    await waitFor(
      async () => (sample(await scrape(), /^reelstat_activity_transcodes\{server="[^"]+"\} (\d+)/m) === 1 ? true : undefined),
      'a transcode in the metrics',
    );
    h.sim.control.stop(play.playId);
    await waitFor(
      async () =>
        sample(await scrape(), /^reelstat_activity_plays_total\{[^}]*play_method="Transcode"[^}]*\} (\d+)/m) === 1 ? true : undefined,
      'the play counted',
    );
    expect((await h.call('GET', '/sync/beginPartialSync')).status).toBe(200);
    await finishedRun(h, 'PartialSyncTask');
    for (let i = 0; i < 2; i++) expect((await h.call('POST', '/stats/getMostViewedByType', { days: 7, type: 'Movie' })).status).toBe(200);
    exposition = await waitFor(async () => {
      const text = await scrape();
      return /^reelstat_task_runs_total\{task="PartialSyncTask",result="success"\} 1$/m.test(text) &&
        /^reelstat_library_plays_total\{/m.test(text)
        ? text
        : undefined;
    }, 'the sync and the play by library counted');
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('exports the DESIGN §7 metrics with what happened: a play, a transcode, a sync, a cache hit, the leader', () => {
    expect(exposition).toMatch(/^reelstat_activity_sessions\{server="[^"]+",play_method="Transcode"\} 0$/m); // the play ended
    expect(exposition).toMatch(/^reelstat_activity_watch_seconds_total\{server="[^"]+",play_method="Transcode"\} \d+$/m);
    expect(exposition).toMatch(/^reelstat_activity_stream_bitrate_bits_per_second\{server="[^"]+"\} \d+$/m);
    expect(exposition).toMatch(/^reelstat_media_server_up\{server="[^"]+"\} 1$/m);
    expect(exposition).toMatch(/^reelstat_task_duration_seconds_count\{task="PartialSyncTask",result="success"\} 1$/m);
    expect(sample(exposition, /^reelstat_task_last_success_timestamp_seconds\{task="PartialSyncTask"\} (\S+)$/m)).toBeGreaterThan(
      Date.now() / 1000 - 300,
    );
    expect(sample(exposition, /^reelstat_cache_requests_total\{cache="statistics",result="hit"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(sample(exposition, /^reelstat_cache_requests_total\{cache="statistics",result="miss"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(exposition).toMatch(/^reelstat_queue_depth\{kind="[^"]+"\} 0$/m);
    expect(exposition).toMatch(/^reelstat_leader\{group="scheduler"\} 1$/m);
    expect(exposition).toMatch(/^reelstat_webhook_dead_deliveries 0$/m);
  });

  it('counts plays and watch time by library, named as the synced library is', async () => {
    const libraries = (await h.call('GET', '/api/getLibraries')).body as Array<{ Id: string; Name: string }>;
    const libraryName = libraries.find((library) => library.Id === playedLibraryId)?.Name;
    expect(libraryName).toBeTruthy();
    const server = `server="[^"]+",library="${libraryName}"`;
    expect(exposition).toMatch(new RegExp(`^reelstat_library_plays_total\\{${server}\\} 1$`, 'm'));
    expect(sample(exposition, new RegExp(`^reelstat_library_watch_seconds_total\\{${server}\\} (\\d+)$`, 'm'))).toBeGreaterThanOrEqual(0);
  });

  it('keeps labels bounded: no user, title, address or raw URL in any label', () => {
    const allowed = new Set([
      'method',
      'route',
      'status',
      'group',
      'role',
      'kind',
      'server',
      'play_method',
      'task',
      'result',
      'cache',
      'library',
      'type',
      'outcome',
      'le',
      'quantile',
    ]);
    const nodeLabels = new Set(['version', 'major', 'minor', 'patch', 'space', 'type']); // prom-client's process metrics
    for (const [metric, labels] of sampleLabels(exposition)) {
      for (const label of labels)
        expect(allowed.has(label) || (metric.startsWith('reelstat_nodejs_') && nodeLabels.has(label)), `${metric}{${label}}`).toBe(true);
    }
    for (const route of exposition.matchAll(/route="([^"]*)"/g)) expect(route[1]).not.toMatch(/\?|\/[0-9a-f]{32}/);
  });

  it('documents every reelstat_ metric family in docs/operations.md', () => {
    const docs = readFileSync(path.join(root, 'docs/operations.md'), 'utf8');
    const families = [...exposition.matchAll(/^# TYPE (reelstat_\S+) /gm)]
      .map((m) => m[1] ?? '')
      .filter((name) => !/^reelstat_(process|nodejs)_/.test(name));
    expect(families.length).toBeGreaterThan(12);
    for (const family of families) expect(docs, family).toContain(`\`${family}`);
  });

  it('dashboards: every panel query parses and names only metrics the product exports', () => {
    const exported = exportedMetricNames(exposition);
    expect(dashboards.map((d) => d.json.uid).sort()).toEqual(['reelstat-operations', 'reelstat-overview']);
    let queries = 0;
    for (const { name, json } of dashboards) {
      for (const { title, expr } of queriesOf(json.panels)) {
        queries += 1;
        const parsed = parsePromql(expr);
        expect(parsed.errors, `${name} "${title}": ${expr}`).toEqual([]);
        expect(parsed.metrics.length, `${name} "${title}"`).toBeGreaterThan(0);
        for (const metric of parsed.metrics) expect(exported.has(metric), `${name} "${title}" uses ${metric}`).toBe(true);
      }
    }
    expect(queries).toBeGreaterThan(20);
  });

  it('alerts: every rule parses, names only exported metrics and has a runbook section', () => {
    const exported = exportedMetricNames(exposition);
    const docs = readFileSync(path.join(root, 'docs/operations.md'), 'utf8');
    const names = alertRules.map((rule) => rule.alert);
    for (const required of [
      'ReelstatDown',
      'ReelstatNoSchedulerLeader',
      'ReelstatMediaServerUnreachable',
      'ReelstatSyncFailing',
      'ReelstatSyncStale',
      'ReelstatBackupFailing',
      'ReelstatHighErrorRate',
      'ReelstatHighLatency',
      'ReelstatWebhookDeadLetters',
    ]) {
      expect(names).toContain(required);
    }
    for (const rule of alertRules) {
      const parsed = parsePromql(rule.expr);
      expect(parsed.errors, rule.alert).toEqual([]);
      for (const metric of parsed.metrics) expect(exported.has(metric), `${rule.alert} uses ${metric}`).toBe(true);
      expect(docs, `runbook of ${rule.alert}`).toContain(`### ${rule.alert}\n`);
      expect(rule.annotations.runbook_url).toMatch(new RegExp(`docs/operations\\.md#${rule.alert.toLowerCase()}$`));
    }
  });

  it('the PromQL check itself rejects a broken query and an unknown metric', () => {
    expect(parsePromql('sum(rate(reelstat_http_request_duration_seconds_count[5m])').errors).not.toEqual([]);
    expect(parsePromql('rate(reelstat_made_up_total[$__rate_interval])')).toEqual({ errors: [], metrics: ['reelstat_made_up_total'] });
    expect(exportedMetricNames(exposition).has('reelstat_made_up_total')).toBe(false);
  });
});
