// Validation of base64 payloads (templates, photos). Mangled log copies are the usual source of
// bad payloads (PROTOCOL.md): PHP JSON-escapes `/` as `\/`, syslog expands TABs, lines get cut.

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Number of bytes a well-formed base64 string decodes to. */
export function base64DecodedLength(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/**
 * Check a base64 payload and, when given, its declared `Size`. ZK documents `Size` as the base64
 * length; the decoded byte length is accepted too because firmware is not consistent about it.
 * Returns a precise reason, or null when the payload is acceptable.
 */
export function base64PayloadError(name: string, value: string, declaredSize?: string): string | null {
  if (value === '') return `${name} is empty`;
  if (value.includes('\\/')) return `${name} contains JSON-escaped slashes ('\\/'): copied from a log, not wire bytes`;
  if (/\s/.test(value)) return `${name} contains whitespace`;
  if (!BASE64.test(value)) return `${name} is not base64`;
  if (value.length % 4 !== 0) return `${name} length ${value.length} is not a multiple of 4 (cut short?)`;
  if (declaredSize !== undefined && declaredSize !== '') {
    if (!/^\d+$/.test(declaredSize)) return `Size ${JSON.stringify(declaredSize)} is not a number`;
    const size = Number(declaredSize);
    if (size !== value.length && size !== base64DecodedLength(value)) {
      return `Size=${size} but ${name} has ${value.length} base64 characters (${base64DecodedLength(value)} bytes): cut short?`;
    }
  }
  return null;
}
