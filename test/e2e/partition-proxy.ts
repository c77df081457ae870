// A TCP proxy between one client and kube-apiserver that the test can cut, as a network partition that
// drops packets would (iptables DROP): while blocked, nothing gets through in either direction, but the
// bytes a side sent are not lost — TCP would retransmit them — and reach the other side once the partition
// heals, unless their sender has reset the connection meanwhile (a TCP reset discards what it had queued).
// A sender that merely closed its socket (FIN) still delivers its bytes after the heal: what a process that
// exits without resetting its connections leaves behind. TLS passes through untouched.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';

interface Side {
  socket: Socket;
  /** Bytes this side sent while the partition was up, not delivered yet. */
  held: Buffer[];
  /** This side reset the connection (its queued bytes are gone) or closed it cleanly (they still go). */
  ended?: 'reset' | 'fin';
}

interface Link {
  client: Side;
  server: Side;
}

export interface PartitionProxy {
  port: number;
  /** A copy of `kubeconfig` whose server is this proxy. */
  kubeconfig: string;
  /** Cuts the network between the client and the server. */
  block(): void;
  /** Heals it: held bytes are delivered (unless their sender reset the connection), in order. */
  heal(): void;
  /** Bytes dropped because their sender reset the connection during the partition, by direction. */
  discarded: { fromClient: number; fromServer: number };
  /** Bytes delivered late, after a heal, by direction. */
  deliveredLate: { fromClient: number; fromServer: number };
  close(): Promise<void>;
}

/** A proxy to the server of `kubeconfig` (https://127.0.0.1:PORT), with a kubeconfig pointing at it beside it. */
export async function startPartitionProxy(kubeconfig: string, out: string): Promise<PartitionProxy> {
  const text = readFileSync(kubeconfig, 'utf8');
  const m = /server: https:\/\/127\.0\.0\.1:(\d+)/.exec(text);
  if (!m) throw new Error(`${kubeconfig} has no https://127.0.0.1:PORT server`);
  const upstream = Number(m[1]);
  const links = new Set<Link>();
  let blocked = false;
  const stats = { discarded: { fromClient: 0, fromServer: 0 }, deliveredLate: { fromClient: 0, fromServer: 0 } };

  const pipe = (from: Side, to: Side, dir: 'fromClient' | 'fromServer') => {
    from.socket.on('data', (chunk: Buffer) => {
      if (blocked || from.held.length > 0) from.held.push(chunk);
      else to.socket.write(chunk);
    });
    from.socket.on('end', () => {
      from.ended ??= 'fin';
      if (!blocked) to.socket.end();
    });
    from.socket.on('error', (e: NodeJS.ErrnoException) => {
      from.ended = e.code === 'ECONNRESET' ? 'reset' : (from.ended ?? 'reset');
      if (blocked) {
        stats.discarded[dir] += from.held.reduce((n, b) => n + b.length, 0);
        from.held = [];
      } else {
        to.socket.resetAndDestroy();
      }
    });
  };

  const server: Server = createServer((client) => {
    const link: Link = { client: { socket: client, held: [] }, server: { socket: connect(upstream, '127.0.0.1'), held: [] } };
    links.add(link);
    pipe(link.client, link.server, 'fromClient');
    pipe(link.server, link.client, 'fromServer');
    const forget = () => {
      if (link.client.socket.destroyed && link.server.socket.destroyed) links.delete(link);
    };
    client.on('close', forget);
    link.server.socket.on('close', forget);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  writeFileSync(out, text.replace(`https://127.0.0.1:${upstream}`, `https://127.0.0.1:${port}`));

  /** Delivers what `from` held to `to` (if `from` did not reset), then passes on its end. */
  const flush = (from: Side, to: Side, dir: 'fromClient' | 'fromServer') => {
    if (from.ended === 'reset') {
      to.socket.resetAndDestroy();
      return;
    }
    for (const chunk of from.held.splice(0)) {
      stats.deliveredLate[dir] += chunk.length;
      if (!to.socket.destroyed) to.socket.write(chunk);
    }
    if (from.ended === 'fin') to.socket.end();
  };

  return {
    port,
    kubeconfig: out,
    ...stats,
    block: () => void (blocked = true),
    heal() {
      blocked = false;
      for (const link of links) {
        flush(link.client, link.server, 'fromClient');
        flush(link.server, link.client, 'fromServer');
      }
    },
    async close() {
      for (const link of links) {
        link.client.socket.destroy();
        link.server.socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
