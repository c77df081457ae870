// The timeline's step lines and their `#index` labels. Labels sit in a band under the rows, away from the
// event markers, and a label that would overlap its left neighbour drops to the next line of the band.

import { escapeHtml, num } from './escape.js';
import type { ReportModel } from './model.js';
import { AXIS_H, type TimeScale, formatSeconds } from './chart-layout.js';

const LINE_H = 12;
/** Upper bound of a 10px `#`, digit or comma, so that estimated widths never underlap. */
const CHAR_W = 6.5;
const GAP = 4;

interface StepGroup {
  t: number;
  indexes: number[];
  text: string;
}

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const nameOf = (o: unknown): string => (isRaw(o) && isRaw(o.metadata) ? String(o.metadata.name ?? '') : isRaw(o) ? String(o.name ?? '') : String(o));

/** A step in words, as a person would say it: `image web/nginx → nginx:1.28`, `wait until Converged`. */
export function describeStep(step: unknown): string {
  if (!isRaw(step)) return JSON.stringify(step);
  if (isRaw(step.setImage)) return `image ${String(step.setImage.name)}/${String(step.setImage.container)} → ${String(step.setImage.image)}`;
  if (step.waitFor !== undefined) {
    const w = step.waitFor;
    const what = isRaw(w) ? `${w.statefulset !== undefined ? `${String(w.statefulset)} is` : `pod ${String(w.pod)} is`} ${String(w.condition ?? (w.pod !== undefined ? 'Ready' : 'Converged'))}` : String(w);
    return `wait until ${what}`;
  }
  if (step.apply !== undefined) return `apply ${isRaw(step.apply) ? String(step.apply.kind) : ''} ${nameOf(step.apply)}`.replace('  ', ' ');
  if (isRaw(step.patch)) return `patch ${String(step.patch.kind)} ${String(step.patch.name)}: ${JSON.stringify(step.patch.merge)}`;
  if (isRaw(step.delete)) return `delete ${String(step.delete.kind)} ${String(step.delete.name)}`;
  if (step.deletePod !== undefined) return `delete pod ${nameOf(step.deletePod)}`;
  if (step.advance !== undefined) return `let ${String(step.advance)} s pass`;
  if (step.restartController !== undefined) return 'restart the controller';
  if (isRaw(step.endpoint)) return `analysis endpoint ${String(step.endpoint.url)} ${step.endpoint.status === null ? 'refuses connections' : `answers ${String(step.endpoint.status)}`}`;
  for (const signal of ['pause', 'resume', 'promote', 'abort', 'retry'] as const) {
    const target = step[signal];
    if (target !== undefined) return `rollout ${signal} ${nameOf(target)}${isRaw(target) && target.full === true ? ' --full' : ''}`;
  }
  if (step.expect !== undefined) return 'check expectations';
  return JSON.stringify(step);
}

/** Steps that start at the same instant share one line (`#1,2`). */
function stepsByTime(steps: ReportModel['steps']): StepGroup[] {
  const out: StepGroup[] = [];
  for (const s of steps) {
    const last = out[out.length - 1];
    const text = `#${s.index} ${describeStep(s.step)}`;
    if (last && last.t === s.t) {
      last.indexes.push(s.index);
      last.text += `\n${text}`;
    } else out.push({ t: s.t, indexes: [s.index], text });
  }
  return out;
}

/** Line of each label (0 = top): the first line whose last label ends left of this one. */
export function staggerLevels(spans: readonly { x: number; width: number }[]): number[] {
  const rightEdges: number[] = [];
  return spans.map(({ x, width }) => {
    const free = rightEdges.findIndex((right) => x >= right);
    const level = free < 0 ? rightEdges.length : free;
    rightEdges[level] = x + width + GAP;
    return level;
  });
}

/** The step lines from the axis down into the label band that starts at `bandTop`, and the band's height. */
export function renderStepLines(steps: ReportModel['steps'], bandTop: number, scale: TimeScale): { svg: string; height: number } {
  const groups = stepsByTime(steps);
  const labels = groups.map((g) => `#${g.indexes.join(',')}`);
  const widths = labels.map((l) => l.length * CHAR_W + 2);
  const levels = staggerLevels(groups.map((g, i) => ({ x: scale.x(g.t), width: widths[i] ?? 0 })));
  const lines: string[] = [];
  const texts: string[] = [];
  groups.forEach((g, i) => {
    const x = num(scale.x(g.t));
    const baseline = bandTop + ((levels[i] ?? 0) + 1) * LINE_H - 2;
    const title = `<title>${escapeHtml(`steps at ${formatSeconds(g.t)}:\n${g.text}`)}</title>`;
    lines.push(`<g class="step">${title}<line x1="${x}" x2="${x}" y1="${AXIS_H}" y2="${baseline}"/></g>`);
    const plate = `<rect class="step-plate" x="${num(scale.x(g.t) + 1)}" y="${baseline - 9}" width="${num(widths[i] ?? 0)}" height="11"/>`;
    texts.push(`<g class="step">${title}${plate}<text x="${x}" y="${baseline}" dx="2">${labels[i] ?? ''}</text></g>`);
  });
  // Labels on white plates after every line, so a lower label's line never runs through an upper label.
  return { svg: lines.join('') + texts.join(''), height: groups.length ? (Math.max(...levels) + 1) * LINE_H + 4 : 0 };
}
