import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** The responses under way on an open connection, and how many requests it has carried. */
interface ConnectionState {
  active: Set<ServerResponse>;
  served: number;
}

export interface GracefulClose {
  /**
   * Takes the connections already queued (for at most `maxDrainMs`), stops listening (new connections are refused),
   * lets every request under way finish, answers requests that arrive on connections already open with
   * `Connection: close`, and after `idleGraceMs` closes the connections that are still idle. Resolves once no
   * connection is left.
   */
  close(options: { idleGraceMs: number; maxDrainMs: number }): Promise<void>;
}

/**
 * Closes an HTTP server without resetting a request it has been sent. Two things in Node's own `server.close()`
 * would: it closes the listening socket at once, and the kernel resets every connection still queued behind it
 * (Node takes one queued connection per turn of the event loop, so a busy server has a queue); and it closes every
 * connection it counts as idle, which includes a connection accepted whose first request is still on its way.
 * Here the queue is taken first, only connections that have been served and sit idle are closed, and only after a
 * grace period in which a keep-alive client's next request is still answered (with `Connection: close`, so that it
 * reconnects, and is refused).
 */
export function trackConnections(server: HttpServer): GracefulClose {
  const connections = new Map<Socket, ConnectionState>();
  let closing = false;
  let listening = true;
  let acceptedWhileClosing = 0;

  server.on('connection', (socket: Socket) => {
    if (closing) acceptedWhileClosing += 1;
    connections.set(socket, { active: new Set(), served: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!listening) response.setHeader('Connection', 'close');
    if (!state) return;
    state.active.add(response);
    state.served += 1;
    response.once('close', () => {
      state.active.delete(response);
      if (!listening && state.active.size === 0) request.socket.end();
    });
  });

  const closeIdle = (onlyServed: boolean) => {
    for (const [socket, state] of connections) {
      if (state.active.size === 0 && (!onlyServed || state.served > 0)) socket.end();
    }
  };

  return {
    async close({ idleGraceMs, maxDrainMs }) {
      closing = true;
      // Connections the kernel has queued (clients that connected before the signal) are taken before the listener
      // closes, which would reset them. Node takes one queued connection per turn of the event loop, so the loop
      // turns until a whole turn (its I/O phase lies between two checks) takes none, for at most `maxDrainMs`.
      // Meanwhile kept-alive connections go on as before: sent elsewhere now, their next requests would queue.
      const drainUntil = performance.now() + maxDrainMs;
      do {
        acceptedWhileClosing = 0;
        for (let check = 0; check < 2; check += 1) await new Promise((resolve) => setImmediate(resolve));
      } while (acceptedWhileClosing > 0 && performance.now() < drainUntil);
      listening = false;
      // From now on a response tells its client to reconnect (and be refused); the connection closes after it.
      for (const state of connections.values()) {
        for (const response of state.active)
          if (!response.headersSent) response.setHeader('Connection', 'close');
      }
      await new Promise<void>((resolve) => {
        // The plain TCP close: stop listening, without Node's HTTP close that drops connections it deems idle.
        NetServer.prototype.close.call(server, () => resolve());
        setTimeout(() => closeIdle(true), idleGraceMs).unref();
        // Past twice the grace, a connection that never sent a request is not going to.
        setTimeout(() => closeIdle(false), 2 * idleGraceMs).unref();
      });
    },
  };
}
