// Where the dashboard listens: `--address HOST:PORT` (`[::1]:PORT` for IPv6), loopback by default. The page
// acts with the user's kubeconfig credentials, so an address other hosts can reach is refused unless
// `--allow-remote` says the user means it, and then comes with a warning. The Host header of every request
// must name the address (or `localhost` for a loopback one): a page on another site that resolves its own
// name to 127.0.0.1 (DNS rebinding) is not answered.

import { isIP } from 'node:net';

export interface ListenAddress {
  host: string;
  /** 0: any free port (the one the system picks is printed). */
  port: number;
}

export class ListenAddressError extends Error {
  override name = 'ListenAddressError';
}

export const DEFAULT_ADDRESS = '127.0.0.1:8290';

/** `127.0.0.1:8290`, `localhost:0`, `[::1]:8290`; throws ListenAddressError naming what is wrong. */
export function parseListenAddress(text: string): ListenAddress {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  if (m === null) throw new ListenAddressError(`--address ${text}: want HOST:PORT, e.g. ${DEFAULT_ADDRESS} ([::1]:PORT for IPv6)`);
  const host = (m[1] ?? m[2] ?? '').toLowerCase();
  const port = Number(m[3]);
  if (port > 65535) throw new ListenAddressError(`--address ${text}: port ${port} is above 65535`);
  if (m[1] !== undefined && isIP(host) !== 6) throw new ListenAddressError(`--address ${text}: ${host} is not an IPv6 address`);
  return { host, port };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** The refusal of a non-loopback address without --allow-remote; undefined when the address may be used. */
export function remoteRefusal(address: ListenAddress, allowRemote: boolean): string | undefined {
  if (isLoopback(address.host) || allowRemote) return undefined;
  return `--address ${hostPort(address.host, address.port)} is not a loopback address: anyone who can reach it could act with your kubeconfig's credentials; pass --allow-remote to serve there anyway`;
}

/** The warning printed when serving on a non-loopback address; undefined on loopback. */
export function remoteWarning(address: ListenAddress, context: string): string | undefined {
  if (isLoopback(address.host)) return undefined;
  return `warning: serving on ${hostPort(address.host, address.port)}, which is not loopback: anyone who can reach it can read these sets and pause, promote, abort, retry, undo or restart them with the credentials of context ${context}`;
}

/** `127.0.0.1:8290`, `[::1]:8290`. */
export const hostPort = (host: string, port: number): string => (isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * The Host header values a request may carry (lower case): the address itself, and on loopback the other
 * loopback names of the same port. undefined: any, on a non-loopback address the user allowed (other hosts
 * reach it under names the dashboard cannot know).
 */
export function allowedHosts(address: ListenAddress, port: number): ReadonlySet<string> | undefined {
  if (!isLoopback(address.host)) return undefined;
  return new Set([hostPort(address.host, port), `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
}
