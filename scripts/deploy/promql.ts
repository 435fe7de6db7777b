// Reads PromQL with the Prometheus project's own grammar (lezer-promql) and the metric names of a /metrics page.
import { parser } from '@prometheus-io/lezer-promql';

/** Grafana's interval variables, replaced by a duration so the query parses as Prometheus will see it. */
const GRAFANA_INTERVALS = /\$__(rate_interval|interval|range)\b/g;

export interface ParsedQuery {
  errors: string[];
  metrics: string[];
}

export function parsePromql(expression: string): ParsedQuery {
  const query = expression.replace(GRAFANA_INTERVALS, '5m');
  const errors: string[] = [];
  const metrics = new Set<string>();
  parser.parse(query).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: …${query.slice(Math.max(0, node.from - 20), node.to + 20)}…`);
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        if (name) metrics.add(query.slice(name.from, name.to));
      }
    },
  });
  return { errors, metrics: [...metrics] };
}

/**
 * Every series name a /metrics page declares (from its "# TYPE" lines, so a labelled metric that has no sample
 * yet still counts), with the _bucket/_sum/_count series of histograms and summaries.
 */
export function exportedMetricNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name = '', type] = match;
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** Label names of every sample of a /metrics page, by metric family (the name before any suffix). */
export function sampleLabels(exposition: string): Map<string, Set<string>> {
  const labels = new Map<string, Set<string>>();
  for (const match of exposition.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\} /gm)) {
    const [, name = '', body = ''] = match;
    const set = labels.get(name) ?? new Set<string>();
    for (const pair of body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) set.add(pair[1] ?? '');
    labels.set(name, set);
  }
  return labels;
}
