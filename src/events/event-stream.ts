import type { StoredEvent } from './event-types';

/**
 * A push-to-pull queue: the feed pushes events, graphql-ws pulls them with `next()`. `return()`
 * (client completed or disconnected) runs `onClose` so the feed forgets the subscriber.
 */
export class EventStream implements AsyncIterableIterator<StoredEvent> {
  private readonly queue: StoredEvent[] = [];
  private waiting: ((result: IteratorResult<StoredEvent>) => void) | null = null;
  private failWaiting: ((error: Error) => void) | null = null;
  private closed = false;
  private error: Error | null = null;
  /** Resolves a `drained()` wait once the client took enough of the queue (or the stream closed). */
  private drainWaiter: { below: number; resolve: () => void } | null = null;

  constructor(private readonly onClose: () => void) {}

  /** Queued events not yet taken by the client. */
  get backlog(): number {
    return this.queue.length;
  }

  /** True while a producer waits in `drained()` for the client to take events (it reads nothing meanwhile). */
  get producerWaiting(): boolean {
    return this.drainWaiter !== null;
  }

  push(event: StoredEvent): void {
    if (this.closed) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = null;
      resolve({ value: event, done: false });
    } else this.queue.push(event);
  }

  /** Ends the stream with an error the client receives (after what is already queued). */
  fail(error: Error): void {
    if (this.closed) return;
    this.error = error;
    this.releaseDrainWaiter();
    if (this.failWaiting) {
      const reject = this.failWaiting;
      this.waiting = this.failWaiting = null;
      this.close();
      reject(error);
    }
  }

  /** True once the client completed, disconnected or the stream failed. */
  get isClosed(): boolean {
    return this.closed || this.error !== null;
  }

  /**
   * Resolves when fewer than `below` events are queued, or the stream closed: a producer replaying
   * history reads its next page only then, so a slow client never makes the server hold more than
   * about a page of it in memory.
   */
  drained(below: number): Promise<void> {
    if (this.queue.length < below || this.isClosed) return Promise.resolve();
    return new Promise((resolve) => {
      this.drainWaiter = { below, resolve };
    });
  }

  next(): Promise<IteratorResult<StoredEvent>> {
    if (this.queue.length > 0) {
      const value = this.queue.shift()!;
      if (this.drainWaiter && this.queue.length < this.drainWaiter.below) this.releaseDrainWaiter();
      return Promise.resolve({ value, done: false });
    }
    if (this.error) {
      const error = this.error;
      this.close();
      return Promise.reject(error);
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  return(): Promise<IteratorResult<StoredEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<StoredEvent>> {
    this.close();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private releaseDrainWaiter(): void {
    const waiter = this.drainWaiter;
    this.drainWaiter = null;
    waiter?.resolve();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.releaseDrainWaiter();
    this.queue.length = 0;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = this.failWaiting = null;
    this.onClose();
  }
}
