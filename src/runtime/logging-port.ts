// The logging port: pino's call shape (`log.info({ key }, 'message')`), so a pino logger fits as is and
// the simulator and tests can pass a silent or recording one.

export type LogFn = (fields: Record<string, unknown>, msg?: string) => void;

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const nothing: LogFn = () => {};

export const noopLogger: Logger = { debug: nothing, info: nothing, warn: nothing, error: nothing };
