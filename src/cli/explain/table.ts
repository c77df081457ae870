// Plain text tables in kubectl's style: upper-case headers, columns separated by three spaces, no borders.
// Widths are measured without ANSI escapes so that coloured cells still line up.

// eslint-disable-next-line no-control-regex -- matching ANSI colour escapes is the point
const ESCAPES = /\x1b\[[0-9;]*m/g;

export const visibleLength = (s: string): number => s.replace(ESCAPES, '').length;

/** Rows padded to the widest cell of each column; the last column is not padded (no trailing blanks). */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const all = [headers, ...rows];
  const widths = headers.map((_, c) => Math.max(...all.map((r) => visibleLength(r[c] ?? ''))));
  return all.map((r) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell + ' '.repeat((widths[c] ?? 0) - visibleLength(cell))))
      .join('   ')
      .trimEnd(),
  );
}
