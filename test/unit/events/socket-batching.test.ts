import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import WebSocket, { WebSocketServer } from 'ws';
import { batchWrites, TurnBudget } from '../../../src/graphql/socket-batching';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A real server socket with batched writes and the client that reads it; the turn clock advances 4 ms per reading. */
async function connectedPair(budgetMs: number) {
  let clock = 0;
  const turn = new TurnBudget(budgetMs, () => (clock += 4) - 4);
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const accepted = new Promise<WebSocket>((resolve) =>
    wss.on('connection', (socket) => {
      batchWrites(socket, turn);
      resolve(socket);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const received: string[] = [];
  client.on('message', (data) => received.push(String(data)));
  const socket = await accepted;
  await new Promise((resolve) => client.once('open', resolve));
  return {
    socket,
    received,
    close: async () => {
      client.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Sends `count` frames in one turn; returns the callbacks called within that turn and, later, all of them. */
async function sendInOneTurn(socket: WebSocket, count: number) {
  const called: number[] = [];
  for (let i = 0; i < count; i++) socket.send(`frame ${i}`, () => called.push(i));
  // Queued after every send: runs after the callbacks called within this turn, before the next turn.
  const inTurn = await new Promise<number[]>((resolve) => queueMicrotask(() => resolve([...called])));
  await nextTurn();
  await nextTurn();
  return { inTurn, all: called };
}

describe('socket batching: the turn budget (socket-batching)', () => {
  it('write callbacks past the budget of a turn wait for the next turn; every frame still arrives, in order', async () => {
    const pair = await connectedPair(10);
    try {
      // Readings at 0, 4 and 8 ms are within the 10 ms budget; from 12 ms on the callbacks wait.
      const { inTurn, all } = await sendInOneTurn(pair.socket, 6);
      expect(inTurn).to.deep.equal([0, 1, 2]);
      expect(all).to.deep.equal([0, 1, 2, 3, 4, 5]);
      // The next turn has a budget of its own.
      const second = await sendInOneTurn(pair.socket, 2);
      expect(second.inTurn).to.deep.equal([0, 1]);
      while (pair.received.length < 8) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(pair.received).to.deep.equal([0, 1, 2, 3, 4, 5, 0, 1].map((i) => `frame ${i}`));
    } finally {
      await pair.close();
    }
  });

  it('control: without a budget every callback of the turn is called within it', async () => {
    const pair = await connectedPair(Number.POSITIVE_INFINITY);
    try {
      const { inTurn } = await sendInOneTurn(pair.socket, 6);
      expect(inTurn).to.deep.equal([0, 1, 2, 3, 4, 5]);
    } finally {
      await pair.close();
    }
  });
});
