// The flags that describe a change to a StatefulSet, shared by `simulate` (on manifests) and `forecast`:
// `--image CONTAINER=IMAGE` and `--set PATH=VALUE`, each repeatable.

import { InvalidArgumentError } from 'commander';
import { loadYamlDocuments } from '../../api/yaml-loader.js';

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

export function parseSet(text: string): { path: string; value: unknown } {
  const [path, raw] = splitAssignment('--set', text);
  try {
    return { path, value: loadYamlDocuments(raw)[0] ?? null };
  } catch (e) {
    throw new InvalidArgumentError(`--set ${path}: ${(e as Error).message}`);
  }
}

