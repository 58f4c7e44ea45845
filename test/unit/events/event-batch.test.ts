import { expect } from 'chai';
import { eventsAfter, expandEventRow, firstRowAfter, MAX_SPAN, type EventRow } from '../../../src/events/event-batch';

const createdAt = new Date('2026-04-01T10:00:00Z');
const batch: EventRow = {
  id: '4398046511104000',
  workspace_id: 7,
  type: 'attendance.created',
  span: 3,
  created_at: createdAt,
  data: {
    common: { company_id: 3, device_id: 9, time_zone: 'UTC', received_at: '2026-04-01T10:00:00.000Z' },
    keys: ['id', 'pin', 'employee_id', 'work_code'],
    rows: [
      [101, '42', 5, null],
      [102, '7', null, 'A1'],
      [103, '42', 5, null],
    ],
  },
};

describe('outbox batch rows (event-batch)', () => {
  it('a batch row is its events: consecutive ids from the row id, common fields plus each row, keys in jsonb order', () => {
    const events = expandEventRow(batch);
    expect(events.map((e) => e.id)).to.deep.equal(['4398046511104000', '4398046511104001', '4398046511104002']);
    expect(events.every((e) => e.workspaceId === 7 && e.type === 'attendance.created' && e.createdAt.getTime() === createdAt.getTime())).to.equal(true);
    expect(events[1]!.data).to.deep.equal({
      id: 102,
      pin: '7',
      employee_id: null,
      work_code: 'A1',
      company_id: 3,
      device_id: 9,
      time_zone: 'UTC',
      received_at: '2026-04-01T10:00:00.000Z',
    });
    // jsonb orders keys by length, then bytewise: what a single stored event reads back as.
    expect(Object.keys(events[0]!.data)).to.deep.equal(['id', 'pin', 'device_id', 'time_zone', 'work_code', 'company_id', 'employee_id', 'received_at']);
  });

  it('a single event row is returned as stored', () => {
    const single: EventRow = { id: '12', workspace_id: 1, type: 'door.opened', span: 1, created_at: createdAt, data: { door: 1, keys: ['x'], rows: [] } };
    expect(expandEventRow(single)).to.deep.equal([{ id: '12', workspaceId: 1, type: 'door.opened', data: { door: 1, keys: ['x'], rows: [] }, createdAt }]);
  });

  it('eventsAfter drops the events at or before the cursor, also inside a batch', () => {
    expect(eventsAfter([batch], 4398046511104000n).map((e) => e.id)).to.deep.equal(['4398046511104001', '4398046511104002']);
    expect(eventsAfter([batch], 4398046511104002n)).to.deep.equal([]);
    // A row that can hold a later event has an id above firstRowAfter; a full row ending at the cursor does not.
    expect(firstRowAfter(4398046511104002n) < BigInt(batch.id)).to.equal(true);
    expect(firstRowAfter(BigInt(batch.id) + BigInt(MAX_SPAN) - 1n)).to.equal(BigInt(batch.id));
    expect(firstRowAfter(BigInt(batch.id) + BigInt(MAX_SPAN) - 2n) < BigInt(batch.id)).to.equal(true);
  });
});
