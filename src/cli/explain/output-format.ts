// kubectl's `-o json|yaml` for every command that prints a report: the same data in either format.

import { Option } from 'commander';
import { stringify } from 'yaml';

export type OutputFormat = 'text' | 'json' | 'yaml';

/** `-o, --output <format>`: text (default), json or yaml. */
export const outputOption = (): Option => new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'yaml']).default('text');

/** The value as pretty JSON or YAML, ending with a newline. */
export function structured(value: unknown, format: 'json' | 'yaml'): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value, { aliasDuplicateObjects: false });
}
