import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { type AdminRequest, type AdminResponse, adminSocketPath } from '../server/admin-protocol.ts';

/**
 * Asks the server running on the embedded store in `dataDir` over its admin socket. Resolves null when no server
 * listens there (no socket, or one left by a process that is gone), so the caller opens the store itself.
 */
export function askRunningServer(
  dataDir: string,
  request: AdminRequest,
  timeoutMs = 15_000,
): Promise<AdminResponse | null> {
  const path = adminSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let received = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`The running orgraph server did not answer on ${path} within ${timeoutMs / 1000} s.`));
    });
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(null);
      else reject(new Error(`Asking the running orgraph server on ${path} failed: ${error.message}`));
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as AdminResponse);
      } catch {
        reject(new Error(`The running orgraph server on ${path} gave no answer.`));
      }
    });
  });
}
