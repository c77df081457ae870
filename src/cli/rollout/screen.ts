// Where the live view goes: on a terminal each frame replaces the previous one in place (cursor up, clear
// line), as the demo's view does; elsewhere frames are not drawn at all (plain mode prints lines instead).

import type { CommandIO } from '../explain/io.js';

export interface Screen {
  draw(lines: readonly string[]): void;
}

export function liveScreen(io: CommandIO): Screen {
  let height = 0;
  let last = '';
  return {
    draw(lines) {
      const text = lines.join('\n');
      if (text === last) return;
      last = text;
      // up to the frame's first line, clear from there down (a shorter frame leaves nothing behind)
      io.stdout((height ? `\x1b[${height}A\x1b[J` : '') + lines.join('\n') + '\n');
      height = lines.length;
    },
  };
}
