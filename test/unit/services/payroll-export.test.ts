import { expect } from 'chai';
import { exportCsv, parseColumnMapping } from '../../../src/services/payroll/column-mapping';
import { decimalHours, exportRows, hoursMinutes } from '../../../src/services/payroll/export-rows';
import { DomainError } from '../../../src/errors/domain-error';
import { DEFAULT_PAY_POLICY, payRatePercent } from '../../../src/services/attendance/pay-rules';

const rows = () =>
  exportRows({
    company: { code: 'ACME', name: 'Acme, Inc.' },
    startDate: '2026-09-01',
    endDate: '2026-09-30',
    employees: [
      { id: 9, code: 'E-9', name: 'Grace', lastname: 'Hopper' },
      { id: 3, code: 'E-3', name: 'Ada', lastname: 'Lovelace' },
    ],
    minutes: new Map([
      [
        9,
        new Map([
          ['night', 45],
          ['regular', 100],
        ]),
      ],
      [
        3,
        new Map([
          ['overtime', 20],
          ['regular', 0],
          ['holiday', 480],
        ]),
      ],
    ]),
    rateOf: (code) => payRatePercent({ ...DEFAULT_PAY_POLICY, nightPremiumPercent: 12.5 }, code),
  });

describe('payroll export rows and column mapping', () => {
  it('hours: decimal with two places rounded half up, and H:MM', () => {
    expect([0, 1, 20, 29, 30, 450, 451].map(decimalHours)).to.deep.equal(['0.00', '0.02', '0.33', '0.48', '0.50', '7.50', '7.52']);
    expect([5, 450, 900].map(hoursMinutes)).to.deep.equal(['0:05', '7:30', '15:00']);
  });

  it('one row per employee and non-zero pay code, employees by id, codes in code order', () => {
    expect(rows().map((r) => [r.employeeId, r.payCode, r.minutes])).to.deep.equal([
      [3, 'overtime', 20],
      [3, 'holiday', 480],
      [9, 'regular', 100],
      [9, 'night', 45],
    ]);
    expect(rows()[0]).to.include({ employeeName: 'Ada Lovelace', companyName: 'Acme, Inc.', startDate: '2026-09-01', endDate: '2026-09-30' });
  });

  it('the default CSV has every column; a field with a comma is quoted; the same input gives the same bytes', () => {
    const csv = exportCsv(rows(), parseColumnMapping(null, null));
    expect(csv.split('\r\n')[0]).to.equal(
      'employee_id,employee_code,employee_name,company_code,company_name,start_date,end_date,pay_code,minutes,hours,hours_minutes,rate_percent',
    );
    expect(csv.split('\r\n')[1]).to.equal('3,E-3,Ada Lovelace,ACME,"Acme, Inc.",2026-09-01,2026-09-30,overtime,20,0.33,0:20,150');
    expect(exportCsv(rows(), parseColumnMapping(null, null))).to.equal(csv);
  });

  it('each row states its code rate from the policy: regular 100, overtime 150, holiday 200, the night premium as set', () => {
    expect(rows().map((r) => [r.employeeId, r.payCode, r.ratePercent])).to.deep.equal([
      [3, 'overtime', 150],
      [3, 'holiday', 200],
      [9, 'regular', 100],
      [9, 'night', 12.5],
    ]);
    // Rows frozen before rates were exported have none: the cell is empty, the rest as it was.
    const { ratePercent: _rate, ...frozen } = rows()[0]!;
    expect(exportCsv([frozen], parseColumnMapping('pay_code,minutes,rate_percent:Rate', null))).to.equal('pay_code,minutes,Rate\r\novertime,20,\r\n');
  });

  it('a mapping chooses, orders and renames columns and renames pay codes', () => {
    const mapping = parseColumnMapping('employee_code:EmpNo, pay_code:Type ,minutes', 'holiday:HOL200');
    expect(exportCsv(rows(), mapping)).to.equal('EmpNo,Type,minutes\r\nE-3,overtime,20\r\nE-3,HOL200,480\r\nE-9,regular,100\r\nE-9,night,45\r\n');
  });

  it('an unknown column or code, a column twice, or a code without its new name is refused', () => {
    const refused = (columns: string | null, codes: string | null) => {
      try {
        parseColumnMapping(columns, codes);
      } catch (error) {
        return (error as DomainError).details.map((d) => `${d.field}:${d.code}`);
      }
      return [];
    };
    expect(refused('salary', null)).to.deep.equal(['columns:invalid_value']);
    expect(refused('hours,hours', null)).to.deep.equal(['columns:duplicate']);
    expect(refused(null, 'bonus:B')).to.deep.equal(['codes:invalid_value']);
    expect(refused(null, 'overtime')).to.deep.equal(['codes:invalid_value']);
  });
});
