import { expect } from 'chai';
import { gqlData, rest, type RestResponse } from './http';

/** SCIM helpers: a directory's key, its requests, PatchOp bodies. */
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export async function createScimKey(baseUrl: string, adminKey: string, companyId: number): Promise<string> {
  const data = await gqlData(
    baseUrl,
    adminKey,
    'mutation ($c: Int!) { createApiKey(input: { name: "Entra ID", scopes: ["scim"], companyId: $c }) { key scopes companyId } }',
    { c: companyId },
  );
  expect(data.createApiKey).to.include({ companyId });
  expect(data.createApiKey.scopes).to.deep.equal(['scim']);
  return data.createApiKey.key;
}

/** A SCIM request as a directory sends it: `application/scim+json` both ways. */
export function scimRequest(baseUrl: string, key: string | null, method: string, path: string, body?: unknown): Promise<RestResponse> {
  return rest(baseUrl, method, `/scim/v2${path}`, {
    key,
    ...(body === undefined ? {} : { rawBody: JSON.stringify(body), headers: { 'content-type': 'application/scim+json' } }),
  });
}

export const patchOp = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });
