// A node:test reporter for scripts/run-tests.mjs: after the run, each distinct reason tests were skipped for,
// once, with how many tests it skipped, so a run without a control plane ends with one line saying so.

export default async function* skipSummary(source) {
  const reasons = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' || event.data.skip === undefined || event.data.skip === false) continue;
    const reason = typeof event.data.skip === 'string' && event.data.skip !== '' ? event.data.skip : '(no reason given)';
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  if (reasons.size === 0) return;
  const total = [...reasons.values()].reduce((a, b) => a + b, 0);
  yield `\nskipped ${total} test${total === 1 ? '' : 's'}:\n`;
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) yield `  ${String(n).padStart(4)} × ${reason}\n`;
}
