import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { type ReceivedMessage, readMessages, sendMessage } from '../server/admin-messages.ts';
import { type AdminRequest, type AdminResponse, adminSocketPath } from '../server/admin-protocol.ts';

/** A connection to the running server: its messages as they come, and a way to send more. */
export interface AdminConversation {
  socket: Socket;
  messages: AsyncGenerator<ReceivedMessage>;
  send(message: object, payload?: Uint8Array): Promise<void>;
}

/**
 * Opens a conversation with the server running on the embedded store in `dataDir`, beginning with `request`.
 * Resolves null when no server listens there (no socket, or one left by a process that is gone), so the caller
 * opens the store itself.
 */
export function converseWithRunningServer(
  dataDir: string,
  request: AdminRequest,
): Promise<AdminConversation | null> {
  const path = adminSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const refused = (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(null);
      else reject(new Error(`Asking the running orgraph server on ${path} failed: ${error.message}`));
    };
    socket.once('error', refused);
    socket.once('connect', () => {
      socket.off('error', refused);
      const conversation: AdminConversation = {
        socket,
        messages: readMessages(socket),
        send: (message, payload) => sendMessage(socket, message, payload),
      };
      conversation.send(request).then(
        () => resolve(conversation),
        (error: Error) =>
          reject(new Error(`Asking the running orgraph server on ${path} failed: ${error.message}`)),
      );
    });
  });
}

/** The server's answer that ends a conversation; any other message on the way is given to `onMessage`. */
export async function finalAnswer(
  conversation: AdminConversation,
  onMessage: (received: ReceivedMessage) => Promise<void> | void = () => {},
): Promise<AdminResponse & { ok: true }> {
  const { socket } = conversation;
  // An error on the socket ends the iteration below with it.
  socket.on('error', () => {});
  try {
    for await (const received of conversation.messages) {
      if (typeof received.message.ok === 'boolean') {
        const response = received.message as AdminResponse;
        if (!response.ok) throw new Error(response.error);
        return response;
      }
      await onMessage(received);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) {
      throw new Error(`The running orgraph server broke off: ${(error as Error).message}`);
    }
    throw error;
  } finally {
    socket.destroy();
  }
  throw new Error('The running orgraph server closed the connection before it answered.');
}

/**
 * Asks the server running on the embedded store in `dataDir` one question (a token command). Resolves null when no
 * server listens there.
 */
export async function askRunningServer(
  dataDir: string,
  request: AdminRequest,
  timeoutMs = 15_000,
): Promise<AdminResponse | null> {
  const conversation = await converseWithRunningServer(dataDir, request);
  if (!conversation) return null;
  conversation.socket.setTimeout(timeoutMs, () =>
    conversation.socket.destroy(
      new Error(
        `The running orgraph server did not answer on ${adminSocketPath(dataDir)} within ${timeoutMs / 1000} s.`,
      ),
    ),
  );
  try {
    return await finalAnswer(conversation);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
