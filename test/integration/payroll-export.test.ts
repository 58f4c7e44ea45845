import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { query } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Workspace, device and shift in UTC; 2026-09-07 is a Monday.
describe('payroll export: one row per employee and pay code; a locked period exports the same bytes until unlocked', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  before(async () => {
    t = await startTestApp({}, 'payroll-export');
    ws = await createWorkspace(t.url, { maxCompanies: 5 });
  });
  after(() => t.stop());

  const db = (text: string, params: unknown[] = []) => query(t.config.databaseUrl!, text, params);

  async function setup(pin: string) {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', break_minutes: 30, is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin, name: 'Ada', lastname: 'Lovelace', code: `E-${pin}` });
    const upload = async (lines: [string, string][]) => {
      const body = lines.map(([time, state]) => `${pin}\t${time}\t${state}\t1\t0`).join('\n');
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);
    };
    return { company, employee, upload };
  }

  it('export, lock, export (identical), a late punch and a rename (identical, the day shows after_lock), unlock (the export changes)', async () => {
    const { company, employee, upload } = await setup('5151');
    // Monday 09:00-18:00: 540 minutes, 30 unpaid: 450 regular, 60 overtime.
    await upload([
      ['2026-09-07 09:00:00', '0'],
      ['2026-09-07 18:00:00', '1'],
    ]);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-09-01', end_date: '2026-09-30' },
    });
    expect(period.status, period.text).to.equal(201);
    const exportCsv = async () => {
      const response = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export`, { key: ws.key, headers: { accept: 'text/csv' } });
      expect(response.status, response.text).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      return response.text as string;
    };

    const json = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export`, { key: ws.key });
    expect(json.status, json.text).to.equal(200);
    expect(json.body).to.include({
      pay_period_id: period.body.id,
      company_id: company.id,
      start_date: '2026-09-01',
      end_date: '2026-09-30',
      time_zone: 'UTC',
      locked: false,
    });
    expect(json.body).to.not.have.property('csv');
    expect(json.body.rows).to.deep.equal([
      {
        employee_id: employee.id,
        employee_code: 'E-5151',
        employee_name: 'Ada Lovelace',
        company_code: company.code,
        company_name: company.name,
        start_date: '2026-09-01',
        end_date: '2026-09-30',
        pay_code: 'regular',
        minutes: 450,
        hours: '7.50',
        hours_minutes: '7:30',
        rate_percent: 100,
      },
      {
        employee_id: employee.id,
        employee_code: 'E-5151',
        employee_name: 'Ada Lovelace',
        company_code: company.code,
        company_name: company.name,
        start_date: '2026-09-01',
        end_date: '2026-09-30',
        pay_code: 'overtime',
        minutes: 60,
        hours: '1.00',
        hours_minutes: '1:00',
        rate_percent: 150,
      },
    ]);
    const before = await exportCsv();
    expect(before.split('\r\n')[0]).to.equal(
      'employee_id,employee_code,employee_name,company_code,company_name,start_date,end_date,pay_code,minutes,hours,hours_minutes,rate_percent',
    );
    expect(before.split('\r\n')[1]).to.equal(
      `${employee.id},E-5151,Ada Lovelace,${company.code},${company.name},2026-09-01,2026-09-30,regular,450,7.50,7:30,100`,
    );

    // A column mapping: chosen columns, renamed headers and codes.
    const shaped = await rest(
      t.url,
      'GET',
      `/public/v2/pay_periods/${period.body.id}/export?format=csv&columns=employee_code:EmpNo,pay_code:Type,hours:Hours&codes=regular:REG,overtime:OT150`,
      { key: ws.key },
    );
    expect(shaped.text).to.equal('EmpNo,Type,Hours\r\nE-5151,REG,7.50\r\nE-5151,OT150,1.00\r\n');
    const badColumn = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export?columns=salary`, { key: ws.key });
    expect(badColumn.status).to.equal(422);
    expect(badColumn.body.error.details[0]).to.include({ field: 'columns', code: 'invalid_value' });

    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    const locked = await exportCsv();
    expect(locked).to.equal(before);

    // After the lock: the employee is renamed and Tuesday's punches arrive from the terminal.
    expect((await rest(t.url, 'PUT', `/public/v2/employees/${employee.id}`, { key: ws.key, body: { name: 'Augusta' } })).status).to.equal(200);
    await upload([
      ['2026-09-08 09:00:00', '0'],
      ['2026-09-08 17:00:00', '1'],
    ]);
    await waitUntil(
      'the day after the lock carries after_lock',
      async () => {
        const [row] = await db(`select exceptions from attendance_day where employee_id = $1 and date = '2026-09-08'`, [employee.id]);
        return row?.exceptions.includes('after_lock');
      },
      10_000,
    );
    expect(await exportCsv()).to.equal(before);
    const lockedJson = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export?format=json`, {
      key: ws.key,
      headers: { accept: 'text/csv' },
    });
    expect(lockedJson.body).to.include({ locked: true });

    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/unlock`, { key: ws.key })).status).to.equal(200);
    const unlocked = await exportCsv();
    expect(unlocked).to.not.equal(before);
    expect(unlocked.split('\r\n')[1]).to.equal(
      `${employee.id},E-5151,Augusta Lovelace,${company.code},${company.name},2026-09-01,2026-09-30,regular,900,15.00,15:00,100`,
    );
  });

  it('the night premium and the other rates are stated figures of the company policy, carried into every export row', async () => {
    const { company, employee, upload } = await setup('8181');
    const policy = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, {
      key: ws.key,
      body: { pay_policy: { night_start: '17:00', night_end: '06:00', night_premium_percent: 12.5, overtime_rate_percent: 175 } },
    });
    expect(policy.status, policy.text).to.equal(200);
    expect(policy.body.pay_policy).to.include({
      night_premium_percent: 12.5,
      overtime_rate_percent: 175,
      double_time_rate_percent: 200,
      holiday_rate_percent: 200,
      rest_day_rate_percent: 150,
    });
    // Monday 09:00-19:00: 600 minutes, 30 unpaid: 450 regular, 120 overtime, 120 of them in the night window.
    await upload([
      ['2026-09-21 09:00:00', '0'],
      ['2026-09-21 19:00:00', '1'],
    ]);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-09-21', end_date: '2026-09-27' },
    });
    const exported = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export`, { key: ws.key });
    expect(exported.body.rows.map((r: { pay_code: string; minutes: number; rate_percent: number }) => [r.pay_code, r.minutes, r.rate_percent])).to.deep.equal([
      ['regular', 450, 100],
      ['overtime', 120, 175],
      ['night', 120, 12.5],
    ]);
    const csv = await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export?format=csv&columns=pay_code,minutes,rate_percent:Rate`, {
      key: ws.key,
    });
    expect(csv.text).to.equal('pay_code,minutes,Rate\r\nregular,450,100\r\novertime,120,175\r\nnight,120,12.5\r\n');
    // GraphQL states the same rate; a locked period keeps the rate it was exported with.
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, { key: ws.key, body: { pay_policy: { night_premium_percent: 40 } } });
    const graphql = await gqlData(t.url, ws.key, 'query ($id: Int!) { payPeriodExport(id: $id) { rows { payCode ratePercent } } }', { id: period.body.id });
    expect(graphql.payPeriodExport.rows.at(-1)).to.deep.equal({ payCode: 'night', ratePercent: 12.5 });
    // A rate is a percentage from 0 to 1000 with at most two decimals; a shift cannot set one.
    for (const bad of [{ night_premium_percent: -1 }, { overtime_rate_percent: 1001 }, { holiday_rate_percent: 150.125 }]) {
      const refused = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, { key: ws.key, body: { pay_policy: bad } });
      expect(refused.status, JSON.stringify(bad)).to.equal(422);
      expect(refused.body.error.details[0], JSON.stringify(bad)).to.include({ field: `pay_policy.${Object.keys(bad)[0]}`, code: 'out_of_range' });
    }
    const shift = await gql(
      t.url,
      ws.key,
      'mutation ($c: Int!) { createShift(input: { companyId: $c, name: "N", startTime: "22:00", endTime: "06:00", payPolicy: { nightPremiumPercent: 50 } }) { id } }',
      {
        c: company.id,
      },
    );
    expect(shift.errors?.[0]?.extensions?.details?.[0]).to.include({ field: 'payPolicy.nightPremiumPercent', code: 'not_allowed' });
    void employee;
  });

  it('paid leave reaches the export under its absence code: an approved vacation week and a sick day, open and locked (the same bytes while locked)', async () => {
    const { company, employee, upload } = await setup('9191');
    const types = await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: ws.key });
    const typeId = (code: string) => types.body.find((type: { code: string }) => type.code === code).id as number;
    const approved = async (code: string, start: string, end: string) => {
      const filed = await rest(t.url, 'POST', '/public/v2/absence_requests', {
        key: ws.key,
        body: { employee_id: employee.id, absence_type_id: typeId(code), start_date: start, end_date: end },
      });
      expect(filed.status, filed.text).to.equal(201);
      const decided = await rest(t.url, 'POST', `/public/v2/absence_requests/${filed.body.id}/approve`, { key: ws.key, body: {} });
      expect(decided.status, decided.text).to.equal(200);
    };
    // Monday 14 to Friday 18 September on vacation (5 x 450 = 2,250 minutes), Monday 21 sick (450),
    // Tuesday 22 worked 09:00-17:00 (450 regular).
    await approved('VAC', '2026-09-14', '2026-09-20');
    await approved('SICK', '2026-09-21', '2026-09-21');
    await upload([
      ['2026-09-22 09:00:00', '0'],
      ['2026-09-22 17:00:00', '1'],
    ]);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-09-01', end_date: '2026-09-30' },
    });
    expect(period.status, period.text).to.equal(201);
    const exportPath = `/public/v2/pay_periods/${period.body.id}/export`;
    const codesOf = (rows: { pay_code: string; minutes: number; hours: string; rate_percent: number }[]) =>
      rows.map((r) => [r.pay_code, r.minutes, r.hours, r.rate_percent]);
    const expected = [
      ['regular', 450, '7.50', 100],
      ['SICK', 450, '7.50', 100],
      ['VAC', 2250, '37.50', 100],
    ];

    const open = await rest(t.url, 'GET', exportPath, { key: ws.key });
    expect(open.status, open.text).to.equal(200);
    expect(open.body.locked).to.equal(false);
    expect(codesOf(open.body.rows)).to.deep.equal(expected);
    // The export pays what the summary shows.
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${employee.id}&start_date=2026-09-01&end_date=2026-09-30`, {
      key: ws.key,
    });
    expect(summary.body[0].pay_items).to.deep.equal([
      { code: 'regular', minutes: 450 },
      { code: 'SICK', minutes: 450 },
      { code: 'VAC', minutes: 2250 },
    ]);
    const csvPath = `${exportPath}?format=csv&columns=employee_code:EmpNo,pay_code:Type,hours:Hours&codes=regular:REG,VAC:HOL`;
    const openCsv = await rest(t.url, 'GET', csvPath, { key: ws.key });
    expect(openCsv.status, openCsv.text).to.equal(200);
    expect(openCsv.text).to.equal('EmpNo,Type,Hours\r\nE-9191,REG,7.50\r\nE-9191,SICK,7.50\r\nE-9191,HOL,37.50\r\n');
    const unknownCode = await rest(t.url, 'GET', `${exportPath}?codes=VACATION:HOL`, { key: ws.key });
    expect(unknownCode.status).to.equal(422);
    expect(unknownCode.body.error.details[0]).to.include({ field: 'codes', code: 'invalid_value' });

    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    const locked = await rest(t.url, 'GET', exportPath, { key: ws.key });
    expect(locked.body.locked).to.equal(true);
    expect(codesOf(locked.body.rows)).to.deep.equal(expected);
    const lockedCsv = await rest(t.url, 'GET', csvPath, { key: ws.key });
    expect(lockedCsv.text).to.equal(openCsv.text);
    const lockedDefault = (await rest(t.url, 'GET', `${exportPath}?format=csv`, { key: ws.key })).text as string;
    expect(lockedDefault.split('\r\n').slice(2, 4)).to.deep.equal([
      `${employee.id},E-9191,Ada Lovelace,${company.code},${company.name},2026-09-01,2026-09-30,SICK,450,7.50,7:30,100`,
      `${employee.id},E-9191,Ada Lovelace,${company.code},${company.name},2026-09-01,2026-09-30,VAC,2250,37.50,37:30,100`,
    ]);
    // Still the same bytes after the employee's code and the absence code change.
    expect((await rest(t.url, 'PUT', `/public/v2/employees/${employee.id}`, { key: ws.key, body: { code: 'E-9999' } })).status).to.equal(200);
    expect((await rest(t.url, 'PUT', `/public/v2/absence_types/${typeId('VAC')}`, { key: ws.key, body: { code: 'HOLS' } })).status).to.equal(200);
    expect((await rest(t.url, 'GET', csvPath, { key: ws.key })).text).to.equal(openCsv.text);
    expect((await rest(t.url, 'GET', `${exportPath}?format=csv`, { key: ws.key })).text).to.equal(lockedDefault);

    // An absence code never reads as a work code.
    const clash = await rest(t.url, 'POST', '/public/v2/absence_types', { key: ws.key, body: { company_id: company.id, name: 'Extra', code: 'Overtime' } });
    expect(clash.status, clash.text).to.equal(422);
    expect(clash.body.error.details[0]).to.include({ field: 'code', code: 'invalid_value' });
  });

  it('employment dates: days before the start are not_employed, never absent, and count nowhere', async () => {
    const { company, employee, upload } = await setup('6161');
    const set = await rest(t.url, 'PUT', `/public/v2/employees/${employee.id}`, { key: ws.key, body: { employment_start_date: '2026-09-09' } });
    expect(set.status, set.text).to.equal(200);
    expect(set.body).to.include({ employment_start_date: '2026-09-09', employment_end_date: null });
    await upload([
      ['2026-09-07 09:00:00', '0'],
      ['2026-09-07 17:00:00', '1'],
      ['2026-09-09 09:00:00', '0'],
      ['2026-09-09 17:00:00', '1'],
    ]);
    const days = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employee.id}&start_date=2026-09-07&end_date=2026-09-11`, { key: ws.key });
    expect(days.body.map((d: { status: string }) => d.status)).to.deep.equal(['not_employed', 'not_employed', 'present', 'absent', 'absent']);
    expect(days.body[0]).to.include({ worked_minutes: 0, late_minutes: 0 });
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${employee.id}&start_date=2026-09-07&end_date=2026-09-11`, {
      key: ws.key,
    });
    expect(summary.body[0]).to.include({ days_present: 1, days_absent: 2, worked_minutes: 450 });
    const reversed = await rest(t.url, 'PUT', `/public/v2/employees/${employee.id}`, { key: ws.key, body: { employment_end_date: '2026-09-01' } });
    expect(reversed.status).to.equal(422);
    expect(reversed.body.error.details[0]).to.include({ field: 'employment_end_date', code: 'before_start_date' });
    void company;
  });

  it('a company pay policy change recomputes the unlocked days and announces them', async () => {
    const { company, employee, upload } = await setup('7171');
    await upload([
      ['2026-09-14 09:00:00', '0'],
      ['2026-09-14 17:10:00', '1'],
    ]);
    const first = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employee.id}&start_date=2026-09-14&end_date=2026-09-14`, { key: ws.key });
    expect(first.body[0].pay_items).to.deep.equal([
      { code: 'regular', minutes: 450 },
      { code: 'overtime', minutes: 10 },
    ]);
    const changed = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, { key: ws.key, body: { pay_policy: { overtime_min_minutes: 15 } } });
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.pay_policy).to.include({ overtime_min_minutes: 15, early_overtime: false, week_start: 1 });
    await waitUntil(
      'the recomputed day is announced with its new pay items',
      async () => {
        const rows = await db(
          `select data from event where type = 'attendance.day.updated' and data->>'employee_id' = $1 and data->>'date' = '2026-09-14' order by id desc limit 1`,
          [String(employee.id)],
        );
        return rows[0] && JSON.stringify(rows[0].data.pay_items) === JSON.stringify([{ code: 'regular', minutes: 450 }]);
      },
      10_000,
    );
    const bad = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, { key: ws.key, body: { pay_policy: { week_start: 9 } } });
    expect(bad.status).to.equal(422);
    expect(bad.body.error.details[0]).to.include({ code: 'out_of_range' });
  });
});
