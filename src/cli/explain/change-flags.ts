// The flags that describe a change to a StatefulSet and its timings, shared by `simulate` (on manifests) and
// `forecast`: `--image CONTAINER=IMAGE` and `--set PATH=VALUE` (repeatable), whole numbers and seconds.

import { InvalidArgumentError } from 'commander';
import { parseQuantity } from '../../api/validation/quantity.js';
import { loadYamlDocuments } from '../../api/yaml-loader.js';
import type { Allocatable } from '../../cluster/kubelet/resize.js';
import { FieldPathError, parseFieldPath } from '../../sim/field-path.js';

/** Commander's repeatable option: each value parsed, collected in order. */
export function collect<T>(parse: (text: string) => T): (text: string, previous: T[]) => T[] {
  return (text, previous) => [...previous, parse(text)];
}

function splitAssignment(flag: string, text: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0 || eq === text.length - 1) throw new InvalidArgumentError(`${flag} wants NAME=VALUE, got "${text}"`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

export function parseImage(text: string): { container: string; image: string } {
  const [container, image] = splitAssignment('--image', text);
  return { container, image };
}

/**
 * Where `PATH=VALUE` splits: the first `=` outside brackets (`containers[name=app].image=nginx`); -1 if none.
 * An unclosed `[` hides every `=` after it: then the last one, so that the path's own error is the one told.
 */
export function assignmentAt(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']') depth--;
    else if (text[i] === '=' && depth === 0) return i;
  }
  return depth > 0 ? text.lastIndexOf('=') : -1;
}

/** `PATH=VALUE`: a field path (dotted keys, `[N]`, `[FIELD=VALUE]`; checked here) and its value read as YAML. */
export function parseSet(text: string): { path: string; value: unknown } {
  const eq = assignmentAt(text);
  if (eq <= 0 || eq === text.length - 1) throw new InvalidArgumentError(`--set wants PATH=VALUE, got "${text}"`);
  const [path, raw] = [text.slice(0, eq), text.slice(eq + 1)];
  try {
    parseFieldPath(path);
    return { path, value: loadYamlDocuments(raw)[0] ?? null };
  } catch (e) {
    throw new InvalidArgumentError(e instanceof FieldPathError ? `--set ${e.message}` : `--set ${path}: ${(e as Error).message}`);
  }
}


/** `cpu=16,memory=64Gi`: a node's allocatable cpu and memory (either or both; non-negative quantities). */
export function parseAllocatable(text: string): Allocatable {
  const out: Allocatable = {};
  for (const part of text.split(',')) {
    const [name, quantity] = splitAssignment('--allocatable', part.trim());
    if (name !== 'cpu' && name !== 'memory') throw new InvalidArgumentError(`--allocatable ${part.trim()}: only cpu and memory, e.g. cpu=16,memory=64Gi`);
    const parsed = parseQuantity(quantity);
    if ('error' in parsed || parsed.negative) throw new InvalidArgumentError(`--allocatable ${name}=${quantity}: must be a non-negative quantity, e.g. 16, 500m, 64Gi`);
    out[name] = quantity;
  }
  return out;
}

/** A whole number (digits only) of at least `min`. */
export const wholeNumber = (flag: string, min = 0) => (text: string): number => {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${flag} must be a whole number >= ${min}`);
  return n;
};

/** Seconds >= 0. */
export const seconds = (flag: string) => (text: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${flag} must be a number of seconds >= 0`);
  return n;
};

/** `4`, `2,3,5.5`: seconds, one or several samples. */
export const secondsList = (flag: string) => (text: string): number[] => {
  const values = text.split(',').map((s) => Number(s.trim()));
  if (text.trim() === '' || values.some((n) => !Number.isFinite(n) || n < 0)) throw new InvalidArgumentError(`${flag} wants seconds >= 0, one or comma-separated samples (2,3,5.5)`);
  return values;
};
