import { expect } from 'chai';
import { parse, type ExecutionArgs } from 'graphql';
import { executeShared, operationKey } from '../../src/graphql/shared-execution';

const args = (principal: unknown, query: string, variables: Record<string, unknown> = {}): ExecutionArgs =>
  ({ schema: null as never, document: parse(query), variableValues: variables, contextValue: { principal } }) as ExecutionArgs;

describe('shared subscription execution', () => {
  const reader = { kind: 'workspace', workspaceId: 1, keyId: 10, scopes: ['read'] };
  const query = 'subscription ($c: Int) { punchCreated(companyId: $c) { cursor } }';

  it('keys an operation by workspace, scopes, document, operation name and variables (not by key id)', () => {
    const base = operationKey(args(reader, query, { c: 1 }));
    expect(operationKey(args({ ...reader, keyId: 11 }, query, { c: 1 })), 'another key with the same scopes').to.equal(base);
    expect(operationKey(args({ ...reader, workspaceId: 2 }, query, { c: 1 }))).to.not.equal(base);
    expect(operationKey(args({ ...reader, scopes: ['read', 'write'] }, query, { c: 1 }))).to.not.equal(base);
    expect(operationKey(args(reader, query, { c: 2 }))).to.not.equal(base);
    expect(operationKey(args(reader, 'subscription ($c: Int) { punchCreated(companyId: $c) { cursor eventId } }', { c: 1 }))).to.not.equal(base);
  });

  it('executes once per event and key', () => {
    const event = {};
    let runs = 0;
    const run = () => ({ data: { n: ++runs } });
    const first = executeShared(event, 'k', run);
    expect(executeShared(event, 'k', run)).to.equal(first);
    expect(executeShared(event, 'other', run)).to.deep.equal({ data: { n: 2 } });
    expect(executeShared({}, 'k', run), 'another event').to.deep.equal({ data: { n: 3 } });
    expect(runs).to.equal(3);
  });
});
