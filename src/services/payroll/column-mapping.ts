// The column mapping of a payroll export (docs/payroll-export.md, "Shaping the file"): which columns,
// in which order, under which headers, and the pay codes renamed for the payroll provider. Pure;
// unit-tested in test/unit/services/payroll-export.test.ts.
import { FieldChecker } from '../common/validation';
import { PAY_CODES } from '../attendance/pay-rules';
import { EXPORT_COLUMNS, EXPORT_FIELDS, type ExportColumn, type ExportRow } from './export-rows';

export interface ColumnMapping {
  /** [column, header] in output order. */
  columns: [ExportColumn, string][];
  /** pay code -> the provider's code. */
  codes: Map<string, string>;
}

const NAME = /^[A-Za-z0-9_ .\-/#()]{1,64}$/;

/**
 * `columns`: `column[:header],...` (`employee_code:EmpNo,pay_code:Type,hours`), default every column
 * under its own name; `codes`: `code:provider_code,...` (`overtime:OT150,night:NIGHT25,VAC:HOL`) of
 * the work codes and the paid leave codes given, default the codes as they are. An unknown column or code, a header or code that is not 1–64 plain
 * characters, or a column named twice is a field error.
 */
export function parseColumnMapping(
  columns: string | null | undefined,
  codes: string | null | undefined,
  leaveCodes: ReadonlySet<string> = new Set(),
): ColumnMapping {
  const check = new FieldChecker();
  const mapping: ColumnMapping = { columns: [], codes: new Map() };
  if (columns == null || columns === '') mapping.columns = EXPORT_COLUMNS.map((c) => [c, c]);
  else {
    for (const part of columns.split(',')) {
      const [column, header = column] = part.split(':', 2).map((s) => s.trim()) as [string, string?];
      if (!(EXPORT_COLUMNS as readonly string[]).includes(column))
        check.add('columns', 'invalid_value', `Unknown column "${column}"; the columns are ${EXPORT_COLUMNS.join(', ')}.`);
      else if (!NAME.test(header!)) check.add('columns', 'invalid_value', `The header "${header}" must be 1 to 64 letters, digits, spaces or _ . - / # ( ).`);
      else if (mapping.columns.some(([c]) => c === column)) check.add('columns', 'duplicate', `The column "${column}" is named twice.`);
      else mapping.columns.push([column as ExportColumn, header!]);
    }
  }
  for (const part of codes == null || codes === '' ? [] : codes.split(',')) {
    const [code, renamed] = part.split(':', 2).map((s) => s.trim()) as [string, string?];
    if (!(PAY_CODES as readonly string[]).includes(code) && !leaveCodes.has(code))
      check.add('codes', 'invalid_value', `Unknown pay code "${code}"; the codes are ${[...PAY_CODES, ...[...leaveCodes].sort()].join(', ')}.`);
    else if (renamed === undefined || !NAME.test(renamed))
      check.add('codes', 'invalid_value', `Give "${code}" a provider code of 1 to 64 plain characters (${code}:CODE).`);
    else mapping.codes.set(code, renamed);
  }
  check.done();
  return mapping;
}

/** The rows under the mapping: the chosen columns (each the row field it names), renamed pay codes. */
export function mappedRows(rows: readonly ExportRow[], mapping: ColumnMapping): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [column, header] of mapping.columns)
      out[header] = column === 'pay_code' ? (mapping.codes.get(row.payCode) ?? row.payCode) : row[EXPORT_FIELDS[column]];
    return out;
  });
}

const cell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * The export as RFC 4180 CSV (UTF-8 without a byte-order mark, CRLF line ends, a header row, a field
 * quoted when it holds a comma, a quote or a line break): the same rows and mapping give the same bytes.
 */
export function exportCsv(rows: readonly ExportRow[], mapping: ColumnMapping): string {
  const headers = mapping.columns.map(([, header]) => header);
  const lines = [headers.map(cell).join(',')];
  for (const row of mappedRows(rows, mapping)) lines.push(headers.map((h) => cell(row[h])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
