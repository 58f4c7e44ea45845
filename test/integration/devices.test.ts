import { expect } from 'chai';
import { createCompany, createDevice, createWorkspace, setWorkspaceTimeZone } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';

describe('devices', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'devices');
  });
  after(() => t.stop());

  it('REST: create wrapped and flat (201), get, update, delete; status pending and read-only; zone from the workspace', async () => {
    const ws = await createWorkspace(t.url);
    await setWorkspaceTimeZone(t.url, ws.key, 'America/Sao_Paulo');
    const company = await createCompany(t.url, ws.key);
    const wrapped = await rest(t.url, 'POST', '/public/v2/devices', {
      key: ws.key,
      body: { device: { name: 'Front door', serial_number: 'CRJP230860129', company_id: company.id, mode_type: 'acc', status: 'online' } },
    });
    expect(wrapped.status).to.equal(201);
    expect(wrapped.body).to.include({
      name: 'Front door',
      serial_number: 'CRJP230860129',
      company_id: company.id,
      mode_type: 'acc',
      status: 'pending',
      time_zone: 'America/Sao_Paulo',
      last_seen_at: null,
      firmware: null,
      area_id: null,
    });
    const flat = await rest(t.url, 'POST', '/public/v2/devices', {
      key: ws.key,
      body: { name: 'Clock', serial_number: 'BOCK200961014', company_id: company.id, time_zone: 'Asia/Kolkata' },
    });
    expect(flat.status).to.equal(201);
    expect(flat.body).to.include({ mode_type: 'att', time_zone: 'Asia/Kolkata' });

    const updated = await rest(t.url, 'PUT', `/public/v2/devices/${wrapped.body.id}`, {
      key: ws.key,
      body: { name: 'Main door', status: 'offline', time_zone: 'Europe/Berlin' },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ name: 'Main door', status: 'pending', time_zone: 'Europe/Berlin' });
    expect((await rest(t.url, 'GET', `/public/v2/devices/${wrapped.body.id}`, { key: ws.key })).body).to.deep.equal(updated.body);

    const v1 = await rest(t.url, 'GET', '/v1/devices', { key: ws.key });
    expect(v1.status).to.equal(200);
    expect(Array.isArray(v1.body)).to.equal(true);
    expect(v1.body.map((d: any) => d.serial_number)).to.deep.equal(['CRJP230860129', 'BOCK200961014']);
    const v2 = await rest(t.url, 'GET', `/public/v2/devices?company_id=${company.id}&per_page=1`, { key: ws.key });
    expect(v2.body).to.have.length(1);
    expect(v2.headers.get('x-total-count')).to.equal('2');

    const deleted = await rest(t.url, 'DELETE', `/public/v2/devices/${flat.body.id}`, { key: ws.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.serial_number).to.equal('BOCK200961014');
    expect((await rest(t.url, 'GET', `/public/v2/devices/${flat.body.id}`, { key: ws.key })).status).to.equal(404);
  });

  it('a serial number is unique across the whole service, whatever the case, without saying who owns it', async () => {
    const a = await createWorkspace(t.url);
    const b = await createWorkspace(t.url);
    const ca = await createCompany(t.url, a.key);
    const cb = await createCompany(t.url, b.key);
    await createDevice(t.url, a.key, ca.id, { serial_number: 'SHARED-SN-1' });
    for (const serial of ['SHARED-SN-1', 'shared-sn-1']) {
      const r = await rest(t.url, 'POST', '/public/v2/devices', { key: b.key, body: { name: 'x', serial_number: serial, company_id: cb.id } });
      expect(r.status, serial).to.equal(422);
      expect(r.body.error.details[0]).to.include({ field: 'serial_number', code: 'already_taken' });
      expect(r.body.error.message)
        .to.match(/already registered/)
        .and.not.match(new RegExp(String(a.id)));
    }
    expect((await rest(t.url, 'GET', '/public/v2/devices', { key: b.key })).body).to.deep.equal([]);
    const other = await createDevice(t.url, a.key, ca.id);
    const clash = await rest(t.url, 'PUT', `/public/v2/devices/${other.id}`, { key: a.key, body: { serial_number: 'shared-SN-1' } });
    expect(clash.status).to.equal(422);
  });

  it('enforces the plan limit of devices until the operator raises it', async () => {
    const ws = await createWorkspace(t.url);
    await gqlData(t.url, MASTER_KEY, 'mutation ($id: Int!) { setWorkspacePlan(workspaceId: $id, input: { maxDevices: 2 }) { maxDevices } }', { id: ws.id });
    const company = await createCompany(t.url, ws.key);
    await createDevice(t.url, ws.key, company.id);
    await createDevice(t.url, ws.key, company.id);
    const refused = await rest(t.url, 'POST', '/public/v2/devices', { key: ws.key, body: { name: 'x', serial_number: 'LIMIT3', company_id: company.id } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('plan_limit_reached');
    await gqlData(t.url, MASTER_KEY, 'mutation ($id: Int!) { setWorkspacePlan(workspaceId: $id, input: { maxDevices: 3 }) { maxDevices } }', { id: ws.id });
    expect(
      (await rest(t.url, 'POST', '/public/v2/devices', { key: ws.key, body: { name: 'x', serial_number: 'LIMIT3', company_id: company.id } })).status,
    ).to.equal(201);
  });

  it('GraphQL: status and terminal-reported fields are not writable', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    for (const field of ['status: online', 'firmware: "x"', 'lastSeenAt: "2026-01-01T00:00:00Z"']) {
      const r = await gql(t.url, ws.key, `mutation ($id: Int!) { updateDevice(id: $id, input: { ${field} }) { id } }`, { id: device.id });
      expect(r.errors?.[0].extensions?.code, field).to.equal('GRAPHQL_VALIDATION_FAILED');
    }
    const read = await gqlData(t.url, ws.key, 'query ($id: Int!) { device(id: $id) { status protocol lastSeenAt } }', { id: device.id });
    expect(read.device).to.deep.equal({ status: 'pending', protocol: null, lastSeenAt: null });
  });
});
