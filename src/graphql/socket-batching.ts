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
// Calling the callback at once lets a subscriber with many events queued (a replay reads pages of
// 500) run through all of them in one turn, executing and sending each, while every other request
// of the process waits: 190-360 ms at a time in the noisy-neighbour scenario. So a turn has a
// budget: once the frames of this turn (all sockets together) took TURN_BUDGET_MS, callbacks wait
// for the next turn (setImmediate), after the event loop has served the I/O that came meanwhile.
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

const MAX_UNSENT = 256 * 1024;
/** How long the frames of one event-loop turn may keep the loop before subscribers wait for the next. */
const TURN_BUDGET_MS = 10;

type Callback = (err?: Error) => void;

/**
 * Whether the current turn of the event loop has spent its budget on frames: the turn starts at its
 * first frame and ends when the loop reaches its next check phase.
 */
export class TurnBudget {
  private startedAt: number | null = null;
  private readonly end = () => {
    this.startedAt = null;
  };

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  spent(): boolean {
    const now = this.now();
    if (this.startedAt === null) {
      this.startedAt = now;
      setImmediate(this.end);
    }
    return now - this.startedAt >= this.budgetMs;
  }
}

const processTurn = new TurnBudget(TURN_BUDGET_MS);

/**
 * For a WebSocketServer's `connection` event, with the socket only (the event's second argument is
 * the request). `turn` is shared by every socket of the process.
 */
export function batchWrites(socket: WebSocket, turn: TurnBudget = processTurn): void {
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
      if (turn.spent()) setImmediate(callback);
      else queueMicrotask(() => callback());
    } else send(data, options, callback);
  }) as WebSocket['send'];
}
