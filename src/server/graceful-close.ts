import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** The responses under way on an open connection, and how many requests it has carried. */
interface ConnectionState {
  active: Set<ServerResponse>;
  served: number;
}

export interface GracefulClose {
  /**
   * Stops listening (new connections are refused), lets every request under way finish, answers requests that
   * arrive on connections already open with `Connection: close`, and after `idleGraceMs` closes the connections
   * that are still idle. Resolves once no connection is left.
   */
  close(options: { idleGraceMs: number }): Promise<void>;
}

/**
 * Closes an HTTP server without resetting any request it has accepted. Node's own `server.close()` also closes
 * every connection it counts as idle, and a connection counts as idle until its first request has been parsed:
 * under load that resets connections the kernel has accepted and whose request is on its way. Here only
 * connections that have been served and sit idle are closed, and only after a grace period in which a keep-alive
 * client's next request is still answered (with `Connection: close`, so that it reconnects, and is refused).
 */
export function trackConnections(server: HttpServer): GracefulClose {
  const connections = new Map<Socket, ConnectionState>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: new Set(), served: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (closing) response.setHeader('Connection', 'close');
    if (!state) return;
    state.active.add(response);
    state.served += 1;
    response.once('close', () => {
      state.active.delete(response);
      if (closing && state.active.size === 0) request.socket.end();
    });
  });

  const closeIdle = (onlyServed: boolean) => {
    for (const [socket, state] of connections) {
      if (state.active.size === 0 && (!onlyServed || state.served > 0)) socket.end();
    }
  };

  return {
    async close({ idleGraceMs }) {
      closing = true;
      // Responses still to start tell their clients to reconnect; the connection closes after them.
      for (const state of connections.values()) {
        for (const response of state.active)
          if (!response.headersSent) response.setHeader('Connection', 'close');
      }
      // A full turn of the event loop (its I/O phase comes between two checks) accepts the connections the kernel
      // has queued, from clients that connected before the signal; closing the listener would reset them.
      for (let turn = 0; turn < 2; turn += 1) await new Promise((resolve) => setImmediate(resolve));
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
