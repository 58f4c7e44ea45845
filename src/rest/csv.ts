// CSV as RFC 4180 writes it: a header row, CRLF line ends, a field quoted (quotes doubled) when it
// holds a comma, a quote or a line break. UTF-8 without a byte-order mark. Lists inside a cell
// (exceptions, punch ids) are joined with `;`, an object in a list as its values joined with `:`
// (pay items: `regular:450;overtime:30`); null is an empty field.

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const item = (v: unknown) => (v !== null && typeof v === 'object' ? Object.values(v).join(':') : String(v));
  const text = Array.isArray(value) ? value.map(item).join(';') : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(cell).join(',')];
  for (const row of rows) lines.push(columns.map((column) => cell(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
