import { expect } from 'chai';
import pino from 'pino';
import sharp from 'sharp';
import { Writable } from 'node:stream';
import { SimulatedTerminal, type SimulatedTerminalConfig } from '../../src/simulator';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** Faces from photos: stored, enrolled on photo terminals, their templates re-used, removed everywhere. */
describe('employee photos', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  const terminals: SimulatedTerminal[] = [];
  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000' }, 'employee_photos');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 50 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  afterEach(async () => {
    await Promise.all(terminals.splice(0).map((terminal) => terminal.stop()));
  });
  after(() => t.stop());

  const sql = <T = any>(query: string, params: unknown[] = []) => t.app.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const pin = () => String(Math.floor(Math.random() * 1e9));
  const employee = () => createEmployee(t.url, ws.key, companyId, { pin: pin() });
  const device = (family: 'att' | 'acc' = 'att') => createDevice(t.url, ws.key, companyId, { mode_type: family });
  const putPhoto = (employeeId: number, image: Buffer, type = 'image/jpeg', key = ws.key) =>
    rest(t.url, 'PUT', `/public/v2/employees/${employeeId}/photo`, { key, rawBody: image, headers: { 'content-type': type } });
  const status = (employeeId: number) => rest(t.url, 'GET', `/public/v2/employees/${employeeId}/photo/status`, { key: ws.key });
  const assign = (employeeId: number, deviceIds: number[]) =>
    rest(t.url, 'POST', `/public/v2/employees/${employeeId}/devices`, { key: ws.key, body: deviceIds.map((id) => ({ device_id: id, permission_id: 0 })) });
  const synced = (employeeId: number, deviceIds: number[]) =>
    waitUntil(`employee ${employeeId} is synced to devices ${deviceIds}`, async () => {
      const list = (await rest(t.url, 'GET', `/public/v2/employees/${employeeId}/devices`, { key: ws.key })).body as any[];
      return deviceIds.every((id) => list.find((a) => a.device_id === id)?.sync_status === 'synced') ? list : null;
    });
  const settled = (employeeId: number, count: number) =>
    waitUntil(`the photo of employee ${employeeId} settled on ${count} device(s)`, async () => {
      const r = await status(employeeId);
      return r.body.devices?.length === count && r.body.devices.every((d: any) => d.status !== 'pending') ? r.body : null;
    });

  function terminal(serialNumber: string, family: 'att' | 'acc', options: Partial<SimulatedTerminalConfig> = {}): SimulatedTerminal {
    const sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber, family, pollIntervalMs: 40, errorDelayMs: 100, ...options });
    terminals.push(sim);
    sim.start();
    return sim;
  }

  /** A photo-like picture: big enough to be scaled down, with structure so the JPEG is not trivial. */
  async function picture(width = 1600, height = 1200, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#cde"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#a75"/></svg>`;
    const image = sharp(Buffer.from(svg));
    return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
  }

  it('stores a JPEG or PNG normalised to a JPEG of at most 640 px, served back only with the read scope and never cached', async () => {
    const e = await employee();
    const put = await putPhoto(e.id, await picture(1600, 1200, 'png'), 'image/png');
    expect(put.status).to.equal(200);
    expect(put.body).to.include({ employee_id: e.id, content_type: 'image/jpeg', width: 640, height: 480 });
    expect(put.body.sha256).to.match(/^[0-9a-f]{64}$/);

    const got = await fetch(`${t.url}/public/v2/employees/${e.id}/photo`, { headers: { authorization: `Bearer ${ws.key}` } });
    expect(got.status).to.equal(200);
    expect(got.headers.get('content-type')).to.equal('image/jpeg');
    expect(got.headers.get('cache-control')).to.equal('private, no-store');
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(bytes.length).to.equal(put.body.size);
    expect(await sharp(bytes).metadata()).to.include({ format: 'jpeg', width: 640, height: 480 });

    const reader = await createKey(t.url, ws.key, ['read']);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${e.id}/photo`, { key: reader })).status).to.equal(200);
    expect((await putPhoto(e.id, await picture(), 'image/jpeg', reader)).status).to.equal(403);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${e.id}/photo`)).status).to.equal(401);

    const viaGraphql = await gql(t.url, reader, 'query ($id: Int!) { employeePhoto(employeeId: $id) { size width imageBase64 } }', { id: e.id });
    expect(Buffer.from(viaGraphql.data.employeePhoto.imageBase64, 'base64').equals(bytes)).to.equal(true);
  });

  it('bad photos get a precise error and change nothing; another workspace sees no photo', async () => {
    const e = await employee();
    const original = (await putPhoto(e.id, await picture())).body;
    const refused = async (image: Buffer, type: string, expected: number, code?: string) => {
      const r = await putPhoto(e.id, image, type);
      expect(r.status, r.text).to.equal(expected);
      if (code) expect(r.body.error.details[0]).to.include({ field: 'photo', code });
      return r;
    };
    await refused(Buffer.from('{"photo": 1}'), 'application/json', 415);
    expect((await refused(Buffer.from('not an image at all'), 'image/jpeg', 422, 'invalid_image')).body.error.code).to.equal('validation_failed');
    const whole = await picture();
    await refused(whole.subarray(0, Math.floor(whole.length / 2)), 'image/jpeg', 422, 'invalid_image');
    await refused(await picture(80, 60), 'image/png', 422, 'too_small');
    await refused(
      await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
        .webp()
        .toBuffer(),
      'image/png',
      422,
      'invalid_image',
    );
    await refused(Buffer.alloc(5 * 1024 * 1024 + 1, 0xff), 'image/jpeg', 413);
    const badBase64 = await gql(t.url, ws.key, 'mutation ($id: Int!) { setEmployeePhoto(employeeId: $id, imageBase64: "@@@") { size } }', { id: e.id });
    expect(badBase64.errors![0].extensions).to.deep.include({ code: 'validation_failed' });
    expect((await status(e.id)).body.photo).to.deep.equal(original);

    const other = await createWorkspace(t.url);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${e.id}/photo`, { key: other.key })).status).to.equal(404);
    expect((await putPhoto(e.id, await picture(), 'image/jpeg', other.key)).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/employees/${e.id}/photo`, { key: other.key })).status).to.equal(404);
    expect((await status(e.id)).body.photo).to.deep.equal(original);
    const none = await employee();
    expect((await rest(t.url, 'GET', `/public/v2/employees/${none.id}/photo/status`, { key: ws.key })).status).to.equal(404);
  });

  it('a photo terminal enrols the face from the photo; its template reaches a terminal of the same version; a terminal with neither says not_supported', async () => {
    const [a, b, c] = [await device('att'), await device('acc'), await device('att')];
    const simA = terminal(a.serial_number, 'att', { visibleFace: 'photo', userPhoto: true });
    const simB = terminal(b.serial_number, 'acc', { visibleFace: 'template' });
    terminal(c.serial_number, 'att');
    const e = await employee();
    await assign(e.id, [a.id, b.id, c.id]);
    await synced(e.id, [a.id, b.id, c.id]);

    const photo = (await putPhoto(e.id, await picture())).body;
    const done = await settled(e.id, 3);
    const byDevice = new Map(done.devices.map((d: any) => [d.device_id, d]));
    expect(byDevice.get(a.id)).to.include({ status: 'enrolled', method: 'photo', return_code: null, reason: null });
    expect(byDevice.get(c.id)).to.include({ status: 'not_supported', method: null });
    // B is reached only once A's template arrived.
    const viaTemplate = await waitUntil('terminal B enrolled the face', async () => {
      const d = (await status(e.id)).body.devices.find((x: any) => x.device_id === b.id);
      return d.status === 'enrolled' ? d : null;
    });
    expect(viaTemplate).to.include({ method: 'template' });

    // The exact commands: the photo inline with the template asked back, and the display photo.
    const jpeg = (await sql(`select encode(data, 'base64') as b64 from employee_photo where employee_id = ?`, [e.id]))[0].b64.replace(/\n/g, '');
    const [bio] = await sql(`select command, kind, status from device_command where device_id = ? and command like 'DATA UPDATE BIOPHOTO%'`, [a.id]);
    expect(bio).to.deep.equal({
      command: `DATA UPDATE BIOPHOTO PIN=${e.pin}\tType=9\tNo=0\tIndex=0\tSize=${jpeg.length}\tContent=${jpeg}\tFormat=0\tUrl=\tPostBackTmpFlag=1`,
      kind: 'face_photo',
      status: 'succeeded',
    });
    const [pic] = await sql(`select command from device_command where device_id = ? and command like 'DATA UPDATE USERPIC%'`, [a.id]);
    expect(pic.command).to.equal(`DATA UPDATE USERPIC PIN=${e.pin}\tSize=${jpeg.length}\tContent=${jpeg}`);
    expect(simA.store.bioPhotos.get(e.pin!)).to.equal(jpeg);
    expect(simA.store.userPhotos.get(e.pin!)).to.equal(jpeg);
    expect(await sql(`select 1 from device_command where device_id in (?, ?) and command ilike 'DATA UPDATE BIOPHOTO%'`, [b.id, c.id])).to.have.length(0);

    // A's template is stored under the employee and B holds exactly it.
    const [stored] = await sql(`select version, source_device_id, data from employee_template where employee_id = ? and type = 9`, [e.id]);
    expect(stored).to.include({ version: '58.0', source_device_id: a.id });
    const onA = [...simA.store.templates.values()].find((x) => x.pin === e.pin && x.type === 9)!;
    const onB = [...simB.store.templates.values()].find((x) => x.pin === e.pin && x.type === 9)!;
    expect(onB.tmp).to.equal(onA.tmp);
    expect(onB.tmp).to.equal(stored.data);
    expect((await status(e.id)).body.photo.sha256).to.equal(photo.sha256);

    // Re-sending the user (a rename) does not send the photo again.
    const photosSent = async () =>
      (await sql(`select count(*)::int as n from device_command where device_id = ? and command like 'DATA UPDATE BIOPHOTO%'`, [a.id]))[0].n;
    expect(await photosSent()).to.equal(1);
    expect((await rest(t.url, 'PUT', `/public/v2/employees/${e.id}`, { key: ws.key, body: { name: 'Renamed' } })).status).to.equal(200);
    await waitUntil(
      'the rename reached terminal A',
      async () => (await sql(`select 1 from device_command where device_id = ? and command like '%Name=Renamed%' and status = 'succeeded'`, [a.id])).length,
      (v) => v > 0,
    );
    await synced(e.id, [a.id, b.id, c.id]);
    expect(await photosSent()).to.equal(1);
    expect((await status(e.id)).body.devices.find((d: any) => d.device_id === a.id)).to.include({ status: 'enrolled', method: 'photo' });

    // A new photo: the old face goes from the terminal that cannot enrol (B), A enrols again, and
    // A's new template replaces the old one on B.
    const faceDeletes = async (deviceId: number) =>
      (await sql(`select command from device_command where device_id = ? and kind = 'face_delete'`, [deviceId])).map((r) => r.command);
    expect((await putPhoto(e.id, await picture(1200, 900, 'png'), 'image/png')).status).to.equal(200);
    expect(await faceDeletes(b.id)).to.deep.equal([`DATA DELETE biodata Pin=${e.pin}\tType=9\tNo=0`]);
    expect(await faceDeletes(a.id)).to.deep.equal([]);
    await waitUntil(
      'the photo was sent twice',
      () => photosSent(),
      (v) => v === 2,
    );
    const renewed = await waitUntil('terminal B holds the renewed face template', async () => {
      const onBNow = [...simB.store.templates.values()].find((x) => x.pin === e.pin && x.type === 9);
      return onBNow && onBNow.tmp !== onA.tmp ? onBNow : null;
    });
    expect((await sql(`select data from employee_template where employee_id = ? and type = 9`, [e.id]))[0].data).to.equal(renewed.tmp);
  });

  it('a terminal that finds no face reports failed with its code and meaning; the user itself stays synced', async () => {
    const d = await device('att');
    terminal(d.serial_number, 'att', { visibleFace: 'photo', photoEnrollResult: () => 'D01E0001' });
    const e = await employee();
    await assign(e.id, [d.id]);
    await synced(e.id, [d.id]);
    const put = await putPhoto(e.id, await picture());
    expect(put.status, put.text).to.equal(200);
    const done = await settled(e.id, 1);
    expect(done.devices[0]).to.include({ device_id: d.id, status: 'failed', method: 'photo', return_code: 'D01E0001', reason: 'no_face' });
    expect(done.devices[0].message).to.match(/no face/);
    await synced(e.id, [d.id]);
  });

  it('deleting the photo removes it and every face template here and on each terminal; a new photo starts again', async () => {
    const [a, b] = [await device('att'), await device('acc')];
    const simA = terminal(a.serial_number, 'att', { visibleFace: 'photo', userPhoto: true });
    const simB = terminal(b.serial_number, 'acc', { visibleFace: 'template' });
    const e = await employee();
    await assign(e.id, [a.id, b.id]);
    await synced(e.id, [a.id, b.id]);
    await putPhoto(e.id, await picture());
    await waitUntil('terminal B holds the face template', async () => [...simB.store.templates.values()].some((x) => x.pin === e.pin && x.type === 9));

    const deleted = await rest(t.url, 'DELETE', `/public/v2/employees/${e.id}/photo`, { key: ws.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.include({ employee_id: e.id, content_type: 'image/jpeg' });
    expect((await rest(t.url, 'GET', `/public/v2/employees/${e.id}/photo`, { key: ws.key })).status).to.equal(404);
    expect(await sql(`select 1 from employee_template where employee_id = ? and type in (2, 9)`, [e.id])).to.have.length(0);
    const removals = async (deviceId: number) =>
      (await sql(`select command from device_command where device_id = ? and kind = 'face_delete' order by id`, [deviceId])).map((r) => r.command);
    expect(await removals(a.id)).to.deep.equal([
      `DATA DELETE BIODATA Pin=${e.pin}\tType=9\tNo=0`,
      `DATA DELETE BIOPHOTO PIN=${e.pin}\tType=9`,
      `DATA DELETE USERPIC PIN=${e.pin}`,
    ]);
    expect(await removals(b.id)).to.deep.equal([`DATA DELETE biodata Pin=${e.pin}\tType=9\tNo=0`]);
    await waitUntil(
      'no terminal holds the photo or a face template',
      async () =>
        !simA.store.bioPhotos.has(e.pin!) &&
        !simA.store.userPhotos.has(e.pin!) &&
        ![...simA.store.templates.values(), ...simB.store.templates.values()].some((x) => x.pin === e.pin && x.type === 9),
    );
    expect(simA.store.users.has(e.pin!) && simB.store.users.has(e.pin!)).to.equal(true);

    // A new photo goes out again (the terminal answered the old one, not this one).
    await putPhoto(e.id, await picture(1200, 1600));
    const again = await settled(e.id, 2);
    expect(again.devices.find((d: any) => d.device_id === a.id)).to.include({ status: 'enrolled', method: 'photo' });
    await waitUntil('terminal B holds the new face template', async () => [...simB.store.templates.values()].some((x) => x.pin === e.pin && x.type === 9));
  });

  it('never writes the photo to the logs', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '3600000' }, 'employee_photos_logs', { logger: pino({ level: 'trace' }, sink) });
    try {
      const own = await createWorkspace(app.url, { maxDevices: 5 });
      const company = await createCompany(app.url, own.key);
      const d = await createDevice(app.url, own.key, company.id, { mode_type: 'att' });
      const sim = new SimulatedTerminal({
        serverUrl: app.url,
        serialNumber: d.serial_number,
        family: 'att',
        pollIntervalMs: 40,
        visibleFace: 'photo',
        userPhoto: true,
      });
      sim.start();
      try {
        const e = await createEmployee(app.url, own.key, company.id, { pin: pin() });
        await rest(app.url, 'POST', `/public/v2/employees/${e.id}/devices`, { key: own.key, body: [{ device_id: d.id, permission_id: 0 }] });
        const put = await rest(app.url, 'PUT', `/public/v2/employees/${e.id}/photo`, {
          key: own.key,
          rawBody: await picture(),
          headers: { 'content-type': 'image/jpeg' },
        });
        expect(put.status).to.equal(200);
        await waitUntil('the terminal holds the photo', async () => sim.store.bioPhotos.has(e.pin!));
        const [row] = await app.app.database.orm.em
          .fork()
          .getConnection()
          .execute(`select encode(data, 'base64') as b64 from employee_photo where employee_id = ?`, [e.id]);
        const fragment = row.b64.replace(/\n/g, '').slice(100, 160);
        expect(lines.some((line) => line.includes('"route":"/public/v2/employees/:id/photo"'))).to.equal(true);
        expect(lines.join('')).to.not.include(fragment);
      } finally {
        await sim.stop();
      }
    } finally {
      await app.stop();
    }
  });
});
