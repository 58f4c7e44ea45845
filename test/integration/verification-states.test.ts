import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

const DEFAULTS = [
  { value: '0', name: 'Check-In' },
  { value: '1', name: 'Check-Out' },
  { value: '2', name: 'Break-Out' },
  { value: '3', name: 'Break-In' },
  { value: '4', name: 'Overtime-In' },
  { value: '5', name: 'Overtime-Out' },
];

describe('verification states', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'states');
  });
  after(() => t.stop());

  const list = async (key: string) => (await rest(t.url, 'GET', '/public/v2/verification_states', { key })).body as any[];
  const pairs = (states: any[]) => states.map((s) => ({ value: s.value, name: s.name }));

  it('seeds the six terminal defaults into a new workspace and into the default workspace made at first start', async () => {
    const ws = await createWorkspace(t.url);
    expect(pairs(await list(ws.key))).to.deep.equal(DEFAULTS);
    expect(pairs(await list(t.adminKey))).to.deep.equal(DEFAULTS);
    const g = await gqlData(t.url, ws.key, '{ verificationStates { totalCount nodes { value name } } }');
    expect(g.verificationStates.totalCount).to.equal(6);
  });

  it('creates (flat and wrapped, 201), reads, updates (flat and wrapped) and deletes a state', async () => {
    const ws = await createWorkspace(t.url);
    const flat = await rest(t.url, 'POST', '/public/v2/verification_states', { key: ws.key, body: { name: 'Lunch-Out', value: '6' } });
    expect(flat.status).to.equal(201);
    expect(flat.body).to.include({ name: 'Lunch-Out', value: '6' });
    expect(flat.body.id).to.be.a('number');
    expect(Object.keys(flat.body).sort()).to.deep.equal(['created_at', 'id', 'name', 'updated_at', 'value']);
    const wrapped = await rest(t.url, 'POST', '/public/v2/verification_states', {
      key: ws.key,
      body: { verification_state: { name: 'Lunch-In', value: '255' } },
    });
    expect(wrapped.status).to.equal(201);
    expect(wrapped.body).to.include({ name: 'Lunch-In', value: '255' });

    const got = await rest(t.url, 'GET', `/public/v2/verification_states/${flat.body.id}`, { key: ws.key });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(flat.body);

    const renamed = await rest(t.url, 'PUT', `/public/v2/verification_states/${flat.body.id}`, { key: ws.key, body: { name: 'Meal-Out' } });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.include({ name: 'Meal-Out', value: '6' });
    const revalued = await rest(t.url, 'PUT', `/public/v2/verification_states/${flat.body.id}`, {
      key: ws.key,
      body: { verification_state: { value: '7' } },
    });
    expect(revalued.body).to.include({ name: 'Meal-Out', value: '7' });

    const deleted = await rest(t.url, 'DELETE', `/public/v2/verification_states/${flat.body.id}`, { key: ws.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.include({ id: flat.body.id, value: '7' });
    expect((await rest(t.url, 'GET', `/public/v2/verification_states/${flat.body.id}`, { key: ws.key })).status).to.equal(404);
    expect((await list(ws.key)).map((s) => s.value)).to.deep.equal(['0', '1', '2', '3', '4', '5', '255']);
  });

  it('pages the list with Link and X-Total-Count', async () => {
    const ws = await createWorkspace(t.url);
    const r = await rest(t.url, 'GET', '/public/v2/verification_states?page=2&per_page=4', { key: ws.key });
    expect(r.status).to.equal(200);
    expect(r.headers.get('x-total-count')).to.equal('6');
    expect(r.body.map((s: any) => s.value)).to.deep.equal(['4', '5']);
    expect(r.headers.get('link')).to.contain('rel="prev"').and.contain('rel="first"').and.not.contain('rel="next"');
  });

  const refused: [string, unknown, string, string][] = [
    ['a duplicate value', { name: 'Again', value: '0' }, 'value', 'already_taken'],
    ['a value with a leading zero', { name: 'X', value: '01' }, 'value', 'invalid_state_value'],
    ['a value above 255', { name: 'X', value: '256' }, 'value', 'invalid_state_value'],
    ['a negative value', { name: 'X', value: '-1' }, 'value', 'invalid_state_value'],
    ['a non-numeric value', { name: 'X', value: 'in' }, 'value', 'invalid_state_value'],
    ['a number instead of a string', { name: 'X', value: 6 }, 'value', 'invalid_type'],
    ['a missing name', { value: '6' }, 'name', 'required'],
    ['a blank name', { name: '  ', value: '6' }, 'name', 'blank'],
    ['a missing value', { name: 'X' }, 'value', 'required'],
    ['an unknown field', { name: 'X', value: '6', color: 'red' }, 'color', 'unknown_field'],
  ];
  for (const [label, body, field, code] of refused) {
    it(`refuses ${label} with 422 naming ${field}, and changes nothing`, async () => {
      const ws = await createWorkspace(t.url);
      const before = await list(ws.key);
      const r = await rest(t.url, 'POST', '/public/v2/verification_states', { key: ws.key, body });
      expect(r.status, r.text).to.equal(422);
      expect(r.body.error.code).to.equal('validation_failed');
      expect(r.body.error.details.map((d: any) => [d.field, d.code])).to.deep.include([field, code]);
      expect(await list(ws.key)).to.deep.equal(before);
    });
  }

  it('refuses an update to a value another state has, and an update with a null value, changing nothing', async () => {
    const ws = await createWorkspace(t.url);
    const before = await list(ws.key);
    const checkOut = before.find((s) => s.value === '1');
    const dup = await rest(t.url, 'PUT', `/public/v2/verification_states/${checkOut.id}`, { key: ws.key, body: { value: '0' } });
    expect(dup.status).to.equal(422);
    expect(dup.body.error.details[0]).to.include({ field: 'value', code: 'already_taken' });
    const nulled = await rest(t.url, 'PUT', `/public/v2/verification_states/${checkOut.id}`, { key: ws.key, body: { value: null } });
    expect(nulled.status).to.equal(422);
    expect(await list(ws.key)).to.deep.equal(before);
  });

  it('keeps workspaces apart: another workspace gets 404 for every route and never sees the states', async () => {
    const a = await createWorkspace(t.url);
    const b = await createWorkspace(t.url);
    const created = await rest(t.url, 'POST', '/public/v2/verification_states', { key: a.key, body: { name: 'Secret', value: '9' } });
    const path = `/public/v2/verification_states/${created.body.id}`;
    expect((await rest(t.url, 'GET', path, { key: b.key })).status).to.equal(404);
    expect((await rest(t.url, 'PUT', path, { key: b.key, body: { name: 'Mine' } })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', path, { key: b.key })).status).to.equal(404);
    expect((await list(b.key)).map((s) => s.id)).not.to.include(created.body.id);
    // The same value is free in another workspace: uniqueness is per workspace.
    expect((await rest(t.url, 'POST', '/public/v2/verification_states', { key: b.key, body: { name: 'Other', value: '9' } })).status).to.equal(201);
    const got = await rest(t.url, 'GET', path, { key: a.key });
    expect(got.body).to.include({ name: 'Secret', value: '9' });
  });

  it('a read key can list but not create', async () => {
    const ws = await createWorkspace(t.url);
    const readKey = await createKey(t.url, ws.key, ['read']);
    expect((await rest(t.url, 'GET', '/public/v2/verification_states', { key: readKey })).status).to.equal(200);
    const r = await rest(t.url, 'POST', '/public/v2/verification_states', { key: readKey, body: { name: 'X', value: '7' } });
    expect(r.status).to.equal(403);
  });

  it('deleting a state used by punches keeps the punches and their raw value; new manual punches can no longer use it', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '77' });
    const device = await createDevice(t.url, ws.key, company.id);
    const state = await rest(t.url, 'POST', '/public/v2/verification_states', { key: ws.key, body: { name: 'Errand', value: '8' } });
    const body = { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: '2024-06-01T09:00:00Z', punch_state: '8' };
    const punch = await rest(t.url, 'POST', '/public/v2/punches', { key: ws.key, body });
    expect(punch.status).to.equal(201);
    expect((await rest(t.url, 'DELETE', `/public/v2/verification_states/${state.body.id}`, { key: ws.key })).status).to.equal(200);
    const kept = await rest(t.url, 'GET', `/public/v2/punches/${punch.body.id}`, { key: ws.key });
    expect(kept.body.punch_state).to.equal('8');
    const again = await rest(t.url, 'POST', '/public/v2/punches', { key: ws.key, body: { ...body, punch_time: '2024-06-01T10:00:00Z' } });
    expect(again.status).to.equal(422);
    expect(again.body.error.details[0]).to.include({ field: 'punch_state', code: 'unknown_state' });
  });
});
