import { gqlData, rest } from './http';
import { MASTER_KEY } from './test-app';

/** Test data from small factories with overrides; each call makes unique codes. */
let sequence = 0;
export const unique = (prefix: string) => `${prefix}${++sequence}${Date.now().toString(36)}`;

export interface TestWorkspace {
  id: number;
  key: string;
}

/** A new workspace through the operator API, with an admin key and optional plan limits. */
export async function createWorkspace(
  baseUrl: string,
  plan: { maxCompanies?: number; maxDevices?: number; maxEmployees?: number } = {},
): Promise<TestWorkspace> {
  const data = await gqlData(baseUrl, MASTER_KEY, `mutation ($name: String!) { createWorkspace(input: { name: $name }) { workspace { id } apiKey { key } } }`, {
    name: unique('ws'),
  });
  const workspace = { id: data.createWorkspace.workspace.id, key: data.createWorkspace.apiKey.key };
  if (Object.keys(plan).length > 0) {
    await gqlData(baseUrl, MASTER_KEY, `mutation ($id: Int!, $input: WorkspacePlanInput!) { setWorkspacePlan(workspaceId: $id, input: $input) { id } }`, {
      id: workspace.id,
      input: plan,
    });
  }
  return workspace;
}

/** A key of the workspace with only these scopes. */
export async function createKey(baseUrl: string, adminKey: string, scopes: string[]): Promise<string> {
  const data = await gqlData(baseUrl, adminKey, `mutation ($scopes: [String!]!) { createApiKey(input: { scopes: $scopes }) { key } }`, { scopes });
  return data.createApiKey.key;
}

export async function createCompany(baseUrl: string, key: string, overrides: Record<string, unknown> = {}) {
  const response = await rest(baseUrl, 'POST', '/public/v2/companies', { key, body: { name: 'Acme', code: unique('C'), ...overrides } });
  if (response.status !== 201) throw new Error(`company not created: ${response.status} ${response.text}`);
  return response.body as { id: number; name: string; code: string };
}

export async function createEmployee(baseUrl: string, key: string, companyId: number, overrides: Record<string, unknown> = {}) {
  const response = await rest(baseUrl, 'POST', '/public/v2/employees', {
    key,
    body: { name: 'Ada', lastname: 'Lovelace', code: unique('E'), company_id: companyId, ...overrides },
  });
  if (response.status !== 201) throw new Error(`employee not created: ${response.status} ${response.text}`);
  return response.body as { id: number; name: string; code: string; pin: string | null; company_id: number; is_active: boolean };
}

export async function createDevice(baseUrl: string, key: string, companyId: number, overrides: Record<string, unknown> = {}) {
  const response = await rest(baseUrl, 'POST', '/public/v2/devices', {
    key,
    body: { name: 'Door', serial_number: unique('SN').toUpperCase(), company_id: companyId, ...overrides },
  });
  if (response.status !== 201) throw new Error(`device not created: ${response.status} ${response.text}`);
  return response.body as { id: number; name: string; serial_number: string; company_id: number; time_zone: string; area_id: number | null };
}

/** Sets the workspace's IANA zone (bare dates in punch filters are read in it). */
export async function setWorkspaceTimeZone(baseUrl: string, key: string, timeZone: string): Promise<void> {
  await gqlData(baseUrl, key, 'mutation ($tz: String!) { updateWorkspace(input: { timeZone: $tz }) { id } }', { tz: timeZone });
}

export async function createArea(baseUrl: string, key: string, companyId: number, overrides: Record<string, unknown> = {}) {
  const response = await rest(baseUrl, 'POST', '/public/v2/areas', {
    key,
    body: { name: unique('Area'), code: unique('A'), company_id: companyId, ...overrides },
  });
  if (response.status !== 201) throw new Error(`area not created: ${response.status} ${response.text}`);
  return response.body as { id: number; name: string; code: string; company_id: number; device_ids: number[]; employee_ids: number[] };
}
