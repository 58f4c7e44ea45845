// One event reaches every subscriber's socket in the same turn of the event loop, and a feed read
// often delivers several events at once. Without batching, `ws` writes each frame on its own (one
// `writev` per message per socket: the largest single cost in the CPU profile at 200 events/s x 100
// subscribers). Two changes make the frames of one turn leave in one write per socket:
// * the TCP socket is corked at the first frame of a turn and uncorked once that turn's microtasks
//   have run (the added delay is the rest of the turn, no timer);
// * graphql-ws waits for each frame's write callback before it takes the subscriber's next event,
//   which would allow one frame per turn. While the socket has little unsent data the callback is
//   called at once; past MAX_UNSENT it is the real one again, so a slow client makes graphql-ws wait
//   and its events queue in the feed (bounded there: the subscriber is cut off 10,000 events behind).
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

const MAX_UNSENT = 256 * 1024;

type Callback = (err?: Error) => void;

/** For `wsServer.on('connection', batchWrites)`. */
export function batchWrites(socket: WebSocket): void {
  // `ws` keeps the TCP socket in `_socket` (always set for a server-side socket).
  const raw = (socket as unknown as { _socket?: Socket })._socket;
  if (!raw) return;
  const send = socket.send.bind(socket) as (data: unknown, options: object, cb?: Callback) => void;
  let corked = false;
  const uncork = () => {
    corked = false;
    raw.uncork();
  };
  socket.send = ((data: unknown, optionsOrCb?: object | Callback, cb?: Callback) => {
    const options = typeof optionsOrCb === 'object' ? optionsOrCb : {};
    const callback = typeof optionsOrCb === 'function' ? (optionsOrCb as Callback) : cb;
    if (!corked && !raw.destroyed) {
      corked = true;
      raw.cork();
      setImmediate(uncork);
    }
    if (callback && socket.bufferedAmount < MAX_UNSENT) {
      send(data, options);
      queueMicrotask(() => callback());
    } else send(data, options, callback);
  }) as WebSocket['send'];
}
