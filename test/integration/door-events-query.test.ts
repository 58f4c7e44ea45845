import { expect } from 'chai';
import { createEmployee, createWorkspace, setWorkspaceTimeZone, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { statementsDuring } from '../support/statements';
import { createTerminalDevice, iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

/** Door events across devices: filters, refusal reasons, paging, tenant isolation. */
describe('door events query', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let north: { id: number; serial_number: string };
  let south: { id: number; serial_number: string };
  let northCompany: number;
  let ada: { id: number };
  let otherDevice: { id: number; serial_number: string };

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const rtlog = (serial: string, lines: string[]) =>
    iclock(t.url, 'POST', `/iclock/cdata?SN=${serial}&table=rtlog`, lines.join('\n'), { 'content-type': 'application/push;charset=UTF-8' });
  const line = (time: string, pin: string, door: number, event: number, index: number) =>
    `time=${time}\tpin=${pin}\tcardno=0\teventaddr=${door}\tevent=${event}\tinoutstatus=0\tverifytype=4\tindex=${index}`;
  const list = async (query: string, key = ws.key) => {
    const response = await rest(t.url, 'GET', `/public/v2/door_events${query}`, { key });
    expect(response.status, response.text).to.equal(200);
    return response;
  };
  const codes = async (query: string, key = ws.key) => (await list(query, key)).body.map((e: any) => e.event_code);

  before(async () => {
    t = await startTestApp({}, 'doorevents');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10, maxEmployees: 100 });
    other = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 });
    await setWorkspaceTimeZone(t.url, ws.key, 'UTC');
    north = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    south = await createTerminalDevice(t.url, ws.key, { time_zone: 'UTC' });
    northCompany = (await sql('select company_id from device where id = ?', [north.id]))[0].company_id;
    ada = await createEmployee(t.url, ws.key, northCompany, { pin: '1001' });
    otherDevice = await createTerminalDevice(t.url, other.key, { time_zone: 'UTC' });
    // North: a granted entry of Ada, her refusal by anti-passback, an interlock refusal, a card
    // reported lost, an unknown refusal code of newer firmware... and a door opening.
    expect(
      (
        await rtlog(north.serial_number, [
          line('2026-11-02 08:00:00', '1001', 1, 0, 1),
          line('2026-11-02 08:05:00', '1001', 1, 24, 2),
          line('2026-11-02 09:00:00', '0', 2, 25, 3),
          line('2026-11-02 10:00:00', '0', 1, 38, 4),
          line('2026-11-03 08:00:00', '0', 1, 200, 5),
        ])
      ).text,
    ).to.equal('OK');
    expect((await rtlog(south.serial_number, [line('2026-11-02 08:30:00', '0', 1, 26, 1), line('2026-11-04 07:00:00', '0', 1, 21, 2)])).text).to.equal('OK');
    expect((await rtlog(otherDevice.serial_number, [line('2026-11-02 08:10:00', '0', 1, 24, 1)])).text).to.equal('OK');
  });
  after(() => t.stop());

  it('lists the events of every device of the workspace, newest first, with the reason of each refusal', async () => {
    const all = (await list('')).body;
    expect(all.map((e: any) => [e.device_id, e.event_code, e.reason])).to.deep.equal([
      [south.id, 21, 'outside_schedule'],
      [north.id, 200, null],
      [north.id, 38, 'card_lost'],
      [north.id, 25, 'interlock'],
      [south.id, 26, 'multi_person_wait'],
      [north.id, 24, 'anti_passback'],
      [north.id, 0, null],
    ]);
    expect(all[5]).to.deep.include({ employee_id: ada.id, pin: '1001', event_class: 'denied', door: 1, company_id: northCompany });
  });

  it('filters by company, device, door, type, code, reason, employee and time range, combined', async () => {
    expect(await codes(`?company_id=${northCompany}`)).to.deep.equal([200, 38, 25, 24, 0]);
    expect(await codes(`?device_id=${south.id}`)).to.deep.equal([21, 26]);
    const [northDoor1] = (await rest(t.url, 'GET', `/public/v2/devices/${north.id}/doors`, { key: ws.key })).body;
    expect(await codes(`?door_id=${northDoor1.id}`)).to.deep.equal([200, 38, 24, 0]);
    expect(await codes('?type=denied')).to.deep.equal([21, 38, 25, 26, 24]);
    expect(await codes('?event_code=24')).to.deep.equal([24]);
    expect(await codes('?reason=anti_passback')).to.deep.equal([24]);
    expect(await codes('?reason=outside_schedule')).to.deep.equal([21]);
    expect(await codes('?reason=other')).to.deep.equal([]);
    expect(await codes(`?employee_id=${ada.id}`)).to.deep.equal([24, 0]);
    expect(await codes('?start_date=2026-11-02T08:30:00Z&end_date=2026-11-02')).to.deep.equal([38, 25, 26]);
    expect(await codes(`?start_date=2026-11-02&end_date=2026-11-03&device_id=${north.id}&type=denied`)).to.deep.equal([38, 25, 24]);
    // GraphQL takes the same filters.
    const data = await gqlData(
      t.url,
      ws.key,
      'query ($c: Int) { doorEvents(companyId: $c, reason: interlock) { totalCount nodes { eventCode reason door } } }',
      { c: northCompany },
    );
    expect(data.doorEvents).to.deep.equal({ totalCount: 1, nodes: [{ eventCode: 25, reason: 'interlock', door: 2 }] });
  });

  it('pages like the other lists', async () => {
    const first = await list('?per_page=3&page=1');
    expect(first.body.map((e: any) => e.event_code)).to.deep.equal([21, 200, 38]);
    expect(first.headers.get('x-total-count')).to.equal('7');
    expect(await codes('?per_page=3&page=3')).to.deep.equal([0]);
    const page = await gqlData(t.url, ws.key, '{ doorEvents(first: 2, eventClass: denied) { totalCount pageInfo { hasNextPage } nodes { eventCode } } }');
    expect(page.doorEvents).to.deep.equal({ totalCount: 5, pageInfo: { hasNextPage: true }, nodes: [{ eventCode: 21 }, { eventCode: 38 }] });
  });

  it('shows a workspace only its own events, whatever ids it names', async () => {
    expect(await codes('', other.key)).to.deep.equal([24]);
    expect(await codes(`?device_id=${north.id}`, other.key)).to.deep.equal([]);
    expect(await codes(`?company_id=${northCompany}`, other.key)).to.deep.equal([]);
    const [northDoor1] = (await rest(t.url, 'GET', `/public/v2/devices/${north.id}/doors`, { key: ws.key })).body;
    expect(await codes(`?door_id=${northDoor1.id}`, other.key)).to.deep.equal([]);
    expect(await codes(`?device_id=${otherDevice.id}`)).to.deep.equal([]);
  });

  it('refuses a bad filter with 422 naming it', async () => {
    const reason = await rest(t.url, 'GET', '/public/v2/door_events?reason=bored', { key: ws.key });
    expect(reason.status).to.equal(422);
    expect(reason.body.error.details[0].field).to.equal('reason');
    const date = await rest(t.url, 'GET', '/public/v2/door_events?start_date=yesterday', { key: ws.key });
    expect(date.status).to.equal(422);
    expect(date.body.error.details[0].field).to.equal('start_date');
    const reversed = await rest(t.url, 'GET', '/public/v2/door_events?start_date=2026-11-03&end_date=2026-11-02', { key: ws.key });
    expect(reversed.status).to.equal(422);
    const graphql = await gql(t.url, ws.key, '{ doorEvents(reason: bored) { totalCount } }');
    expect(graphql.errors).to.have.length(1);
  });

  it('counts the matches only when the operation reads totalCount; pages still say whether more follow', async () => {
    const counts = (statements: string[]) => statements.filter((sql) => /\bcount\(/i.test(sql) && /"?door_event"?/.test(sql));
    // The door board's read: the newest events, no count.
    const board = await statementsDuring(t.app, () =>
      gqlData(t.url, ws.key, '{ doorEvents(first: 3) { pageInfo { hasNextPage endCursor } nodes { eventCode } } }'),
    );
    expect(board.result.doorEvents.nodes.map((e: any) => e.eventCode)).to.deep.equal([21, 200, 38]);
    expect(board.result.doorEvents.pageInfo.hasNextPage).to.equal(true);
    expect(counts(board.statements), board.statements.join('\n')).to.deep.equal([]);
    const last = await statementsDuring(t.app, () =>
      gqlData(t.url, ws.key, 'query ($after: String) { doorEvents(first: 4, after: $after) { pageInfo { hasNextPage } nodes { eventCode } } }', {
        after: board.result.doorEvents.pageInfo.endCursor,
      }),
    );
    expect(last.result.doorEvents).to.deep.equal({
      pageInfo: { hasNextPage: false },
      nodes: [{ eventCode: 25 }, { eventCode: 26 }, { eventCode: 24 }, { eventCode: 0 }],
    });
    expect(counts(last.statements), last.statements.join('\n')).to.deep.equal([]);
    // Asked for, through a fragment too: counted.
    const counted = await statementsDuring(t.app, () =>
      gqlData(t.url, ws.key, '{ doorEvents(first: 3) { ...Total nodes { eventCode } } } fragment Total on DoorEventConnection { totalCount }'),
    );
    expect(counted.result.doorEvents.totalCount).to.equal(7);
    expect(counts(counted.statements), counted.statements.join('\n')).to.have.length(1);
  });
});
