// Module customization hooks that append the URL of every module the process loads to the file given as
// `data.out` (test/cli/startup.test.ts). Written from the hooks thread itself, so nothing is lost when the
// program ends with process.exit().
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, next) {
  appendFileSync(out, `${url}\n`);
  return next(url, context);
}
