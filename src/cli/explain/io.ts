// What a command writes to, so that commands are functions `(client, args, io) → exit code` that tests call
// with a string buffer, and the commander wrappers call with the process's streams.

export interface CommandIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stdout is a terminal: redraw in place (rollout status --watch) and allow colour. */
  isTTY?: boolean;
}

export const processIO: CommandIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: process.stdout.isTTY === true,
};

/** Colour only on a terminal, and never with --no-color or NO_COLOR (https://no-color.org). */
export function useColor(io: CommandIO, flag: boolean | undefined): boolean {
  return flag !== false && io.isTTY === true && !process.env['NO_COLOR'];
}

/** A CommandIO that keeps what was written, for tests and for callers that post-process the text. */
export function bufferIO(isTTY = false): CommandIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    isTTY,
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}

export const ANSI = {
  reset: '\x1b[0m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
} as const;

export type Paint = (code: string, text: string) => string;

export const painter = (color: boolean): Paint => (code, text) => (color && text ? `${code}${text}${ANSI.reset}` : text);
