// One event reaches every subscriber's socket in the same turn of the event loop, and a feed read
// often delivers several events at once. Without batching, `ws` writes each frame on its own (one
// `writev` per message per socket: the largest single cost in the CPU profile at 200 events/s x 100
// subscribers). Corking the TCP socket at the first frame of a turn and uncorking it once that
// turn's microtasks have run sends everything queued meanwhile in one write; the added delay is the
// rest of the current turn, no timer.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/** For `wsServer.on('connection', batchWrites)`. */
export function batchWrites(socket: WebSocket): void {
  // `ws` keeps the TCP socket in `_socket` (always set for a server-side socket).
  const raw = (socket as unknown as { _socket?: Socket })._socket;
  if (!raw) return;
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  let corked = false;
  const uncork = () => {
    corked = false;
    raw.uncork();
  };
  socket.send = ((...args: unknown[]) => {
    if (!corked && !raw.destroyed) {
      corked = true;
      raw.cork();
      setImmediate(uncork);
    }
    send(...args);
  }) as WebSocket['send'];
}
