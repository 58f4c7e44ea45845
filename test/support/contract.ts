import { expect } from 'chai';
import { camelToSnake, renameKeys } from '../../src/kernel/case';
import { gql, rest } from './http';

/**
 * One behaviour, asked of both APIs: the REST route and the GraphQL operation it maps to must give
 * the same data (after snake_case renaming and `normalize`) or the same error code.
 */
export interface ContractCase {
  name: string;
  rest: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown };
  /** `field` is the data field to compare; a dotted path reaches into a payload (`createPunch.punch`). */
  graphql: { query: string; variables?: Record<string, unknown>; field: string };
  /** Expected REST success status; omit when an error is expected. */
  status?: number;
  /** Expected error code on both sides. */
  code?: string;
  /** Drop what legitimately differs between two runs (ids and times of rows each run creates). */
  normalize?: (data: any) => unknown;
}

export const withoutVolatile =
  (keys: string[] = ['id', 'created_at', 'updated_at']) =>
  (data: any): unknown => {
    const strip = (item: any) => Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k)));
    return Array.isArray(data) ? data.map(strip) : strip(data);
  };

export async function checkContract(baseUrl: string, key: string, c: ContractCase): Promise<{ rest: any; graphql: any }> {
  const r = await rest(baseUrl, c.rest.method, c.rest.path, { key, body: c.rest.body });
  const g = await gql(baseUrl, key, c.graphql.query, c.graphql.variables);
  if (c.code) {
    expect(r.body?.error?.code, `${c.name}: REST error code (${r.text})`).to.equal(c.code);
    expect(g.errors?.[0]?.extensions?.code, `${c.name}: GraphQL error code (${JSON.stringify(g.errors)})`).to.equal(c.code);
    const restFields = (r.body.error.details ?? []).map((d: any) => d.field).sort();
    const gqlFields = (g.errors?.[0]?.extensions?.details ?? []).map((d: any) => camelToSnake(d.field)).sort();
    expect(restFields, `${c.name}: same fields named in details`).to.deep.equal(gqlFields);
    return { rest: r.body, graphql: g.errors };
  }
  expect(r.status, `${c.name}: REST status (${r.text})`).to.equal(c.status ?? 200);
  expect(g.errors, `${c.name}: GraphQL errors`).to.equal(undefined);
  let gqlData: any = c.graphql.field.split('.').reduce<any>((value, field) => value?.[field], g.data);
  if (gqlData && typeof gqlData === 'object' && 'nodes' in gqlData) gqlData = gqlData.nodes;
  const normalize = c.normalize ?? ((d: unknown) => d);
  expect(normalize(r.body), `${c.name}: same data`).to.deep.equal(normalize(renameKeys(gqlData, camelToSnake)));
  return { rest: r.body, graphql: gqlData };
}
