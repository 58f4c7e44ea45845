import { expect } from 'chai';
import { verifyTypeName } from '../../src/protocol/verify-type';
import { localTimeToInstant } from '../../src/protocol/time';
import { PunchRecordType } from '../../src/entities/punch.entity';
import type { RequestContext } from '../../src/context/request-context';
import { recordPunches, type NewPunch } from '../../src/services/attendance/punch.service';
import { createCompany, createDevice, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/** The batch function the terminal service uses, called as it will call it (a terminal context). */
describe('recordPunches (batch, idempotent)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'record-punches');
  });
  after(() => t.stop());

  async function terminal() {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id, { time_zone: 'America/Sao_Paulo' });
    const line = (pin: string, localTime: string, code = 1): NewPunch => ({
      companyId: company.id,
      employeeId: null,
      deviceId: device.id,
      deviceSerial: device.serial_number,
      pin,
      punchTime: localTimeToInstant(localTime, 'America/Sao_Paulo'),
      localTime,
      timeZone: 'America/Sao_Paulo',
      punchState: '0',
      verifyType: verifyTypeName(code),
      verifyCode: code,
      recordType: PunchRecordType.device,
      workCode: null,
      deviceRecordIndex: null,
      receivedAt: new Date(),
    });
    return { ws, workspaceId: ws.id, line };
  }

  const ctx = (): RequestContext => ({
    principal: { kind: 'terminal', serialNumber: '*' },
    em: t.app.database.orm.em.fork(),
    requestId: 'test',
    logger: t.app.logger,
    now: () => new Date(),
    config: t.config,
  });

  it('inserts a 100-line batch in one call; in-batch repeats and already stored lines come back as duplicates, in input order', async () => {
    const { ws, workspaceId, line } = await terminal();
    const stored = await recordPunches(ctx(), workspaceId, [line('7', '2024-07-28 08:00:05')]);
    expect(stored.inserted).to.have.length(1);

    const batch: NewPunch[] = [];
    for (let i = 0; i < 97; i++)
      batch.push(line(String(100 + i), `2024-07-28 09:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, 15));
    batch.splice(10, 0, line('7', '2024-07-28 08:00:05')); // already stored
    batch.push(line('100', '2024-07-28 09:00:00', 15)); // repeats batch[0]
    batch.push(line('X9', '2024-07-28 10:00:00', 4));
    expect(batch).to.have.length(100);

    const result = await recordPunches(ctx(), workspaceId, batch);
    expect(result.inserted).to.have.length(98);
    expect(result.duplicates.map((p) => p.id)).to.deep.equal([stored.inserted[0]!.id, result.inserted[0]!.id]);
    expect(result.inserted.map((p) => p.pin)).to.deep.equal(batch.filter((_, i) => i !== 10 && i !== 98).map((p) => p.pin));
    const last = result.inserted[97]!;
    expect(last).to.include({ pin: 'X9', localTime: '2024-07-28 10:00:00', verifyType: 'card', verifyCode: 4, recordType: 'device', employeeId: null });
    expect(last.punchTime.toISOString()).to.equal('2024-07-28T13:00:00.000Z');

    const again = await recordPunches(ctx(), workspaceId, batch);
    expect(again.inserted).to.deep.equal([]);
    expect(again.duplicates).to.have.length(100);
    const r = await rest(t.url, 'GET', '/public/v2/punches?per_page=1', { key: ws.key });
    expect(r.headers.get('x-total-count')).to.equal('99');
    // A punch of a pin the service does not know yet lists with employee_id null and the terminal's verify code.
    expect(r.body[0]).to.include({ pin: 'X9', employee_id: null, verify_type: 'card', verify_code: 4, record_type: 'device' });
  });

  it('stores times in whole seconds, so a fraction of a second does not make a second punch', async () => {
    const { workspaceId, line } = await terminal();
    const p = line('5', '2024-07-28 08:00:00');
    const first = await recordPunches(ctx(), workspaceId, [{ ...p, punchTime: new Date(p.punchTime.getTime() + 700) }]);
    expect(first.inserted[0]!.punchTime.getTime()).to.equal(p.punchTime.getTime());
    const second = await recordPunches(ctx(), workspaceId, [p]);
    expect(second.duplicates.map((d) => d.id)).to.deep.equal([first.inserted[0]!.id]);
  });

  it('concurrent batches with overlapping lines store each punch once', async () => {
    const { ws, workspaceId, line } = await terminal();
    const lines = Array.from({ length: 50 }, (_, i) => line(String(i + 1), `2024-07-28 11:00:${String(i).padStart(2, '0')}`));
    // Overlapping windows, every other one reversed: concurrent inserts in opposite orders must not deadlock.
    const windows = [0, 1, 2, 3].map((k) => lines.slice(k * 10, k * 10 + 20)).map((w, k) => (k % 2 ? w.reverse() : w));
    const results = await Promise.all(windows.map((w) => recordPunches(ctx(), workspaceId, w)));
    expect(results.reduce((n, r) => n + r.inserted.length, 0)).to.equal(50);
    expect(results.reduce((n, r) => n + r.duplicates.length, 0)).to.equal(30);
    const r = await rest(t.url, 'GET', '/public/v2/punches?per_page=1', { key: ws.key });
    expect(r.headers.get('x-total-count')).to.equal('50');
  });

  it('the same serial, pin and time in another workspace is a different punch', async () => {
    const a = await terminal();
    const b = await terminal();
    const p = a.line('1', '2024-07-28 08:00:00');
    expect((await recordPunches(ctx(), a.workspaceId, [p])).inserted).to.have.length(1);
    expect(
      (await recordPunches(ctx(), b.workspaceId, [{ ...p, companyId: b.line('1', '2024-07-28 08:00:00').companyId, deviceId: null }])).inserted,
    ).to.have.length(1);
  });
});
