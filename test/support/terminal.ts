import { once } from 'node:events';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { sessionToken } from '../../src/protocol';
import { createCompany, unique } from './factories';
import { rest } from './http';

/** Raw terminal-style HTTP: no Content-Type unless given, body as bytes. */
export async function iclock(baseUrl: string, method: string, pathAndQuery: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl + pathAndQuery, {
    method,
    headers,
    body: body === undefined ? undefined : new Uint8Array(typeof body === 'string' ? Buffer.from(body, 'utf8') : body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8'), bytes };
}

/** The body bytes of a captured request in test/fixtures/protocol (after the header block). */
export function fixtureBody(name: string): Buffer {
  const file = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'protocol', name));
  const start = file.indexOf('\n', file.indexOf('\nPOST ') + 1);
  const blank = file.indexOf('\n\n', start);
  return file.subarray(blank + 2);
}

/** A device of a new company of the key's workspace. */
export async function createTerminalDevice(baseUrl: string, key: string, overrides: Record<string, unknown> = {}) {
  const company = await createCompany(baseUrl, key);
  const response = await rest(baseUrl, 'POST', '/public/v2/devices', {
    key,
    body: { name: 'Front door', serial_number: unique('SN').toUpperCase(), company_id: company.id, ...overrides },
  });
  if (response.status !== 201) throw new Error(`device not created: ${response.status} ${response.text}`);
  return response.body as { id: number; serial_number: string; status: string };
}

/** One raw HTTP/1.1 exchange over a socket: the exact response bytes (status line, headers, body). */
export async function rawExchange(baseUrl: string, requestHead: string, body: Buffer | string = ''): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.write(requestHead);
  socket.write(body);
  await once(socket, 'end');
  socket.destroy();
  return Buffer.concat(chunks).toString('latin1');
}

/** An access-control terminal's session after it registered and fetched its SessionID: `cookie` proves it. */
export interface PairedTerminal {
  registryCode: string;
  sessionId: string;
  /** `{ cookie: 'token=…' }`, the headers of every request the terminal sends from then on. */
  cookie: { cookie: string };
}

/**
 * Registers `serial` as the terminal does (SEC-DOC §7): registry with its capability line, then
 * push for the SessionID; returns the token cookie. The terminal is paired by its first request
 * that carries the cookie.
 */
export async function registerAccessTerminal(baseUrl: string, serial: string, registryBody: string | Buffer): Promise<PairedTerminal> {
  const registry = await iclock(baseUrl, 'POST', `/iclock/registry?SN=${serial}`, registryBody);
  const registryCode = /^RegistryCode=(\w+)$/.exec(registry.text)?.[1];
  if (!registryCode) throw new Error(`registry refused: ${registry.status} ${registry.text}`);
  const push = await iclock(baseUrl, 'POST', `/iclock/push?SN=${serial}`, '');
  const sessionId = /SessionID=(\w+)/.exec(push.text)?.[1];
  if (!sessionId) throw new Error(`push without SessionID: ${push.status} ${push.text}`);
  return { registryCode, sessionId, cookie: { cookie: `token=${sessionToken(registryCode, serial, sessionId)}` } };
}
