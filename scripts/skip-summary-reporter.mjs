// A node:test reporter for scripts/run-tests.mjs: after the run, each distinct reason tests were skipped for,
// once, with how many tests it skipped, so a run without a control plane ends with one line saying so.
// Tests are counted as node:test counts them (its `ℹ skipped N` line counts tests, never suites), so both
// totals agree; a skipped suite, whose tests never start, is listed on its own.

/** Each reason with its count, most frequent first. */
function lines(reasons) {
  return [...reasons].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  ${String(n).padStart(4)} × ${reason}\n`);
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export default async function* skipSummary(source) {
  const skipped = { test: new Map(), suite: new Map() };
  for await (const event of source) {
    if (event.type !== 'test:pass' || event.data.skip === undefined || event.data.skip === false) continue;
    const reason = typeof event.data.skip === 'string' && event.data.skip !== '' ? event.data.skip : '(no reason given)';
    const reasons = event.data.details?.type === 'suite' ? skipped.suite : skipped.test;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const total = (reasons) => [...reasons.values()].reduce((a, b) => a + b, 0);
  if (skipped.test.size > 0) yield `\nskipped ${plural(total(skipped.test), 'test')}:\n${lines(skipped.test).join('')}`;
  if (skipped.suite.size > 0) yield `\nskipped ${plural(total(skipped.suite), 'suite')}, whose tests did not run:\n${lines(skipped.suite).join('')}`;
}
