// The metric names a PromQL expression (or a Grafana label_values() query) reads, and whether a scrape of
// the controller serves them: what keeps the dashboard and the alert rules honest about the metrics.

/** PromQL functions, aggregations and keywords this package uses (an unknown word counts as a metric, so it fails). */
const WORDS = new Set([
  'sum', 'count', 'max', 'min', 'avg', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool',
  'rate', 'increase', 'changes', 'max_over_time', 'histogram_quantile', 'vector', 'label_values',
]);

/** Every metric name in `expr`. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // strings: label values, $variables
    .replace(/\{[^}]*\}/g, '{}') // label matchers
    .replace(/\[[^\]]*\]/g, '[]') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '$1()') // label lists
    .replace(/label_values\(([^,()]*),[^)]*\)/g, 'label_values($1)'); // its second argument is a label
  const words = bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(words.filter((w) => !WORDS.has(w)))];
}

/** The families of a Prometheus text exposition, by `# TYPE name type`. */
export function scrapedFamilies(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Whether `name` is a series of one of the families (a histogram's _bucket, _sum and _count included). */
export function isServed(name: string, families: ReadonlyMap<string, string>): boolean {
  if (families.has(name)) return true;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return base !== name && ['histogram', 'summary'].includes(families.get(base) ?? '');
}
