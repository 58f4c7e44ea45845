import { expect } from 'chai';
import { checkContract, withoutVolatile } from '../support/contract';
import { createWorkspace, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const fields = 'id name value createdAt updatedAt';

describe('contract: verification states (REST = GraphQL)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp({}, 'states-contract');
    ws = await createWorkspace(t.url);
  });
  after(() => t.stop());

  it('lists the same states', async () => {
    const { rest } = await checkContract(t.url, ws.key, {
      name: 'list',
      rest: { method: 'GET', path: '/public/v2/verification_states' },
      graphql: { query: `{ verificationStates { nodes { ${fields} } } }`, field: 'verificationStates' },
    });
    expect(rest).to.have.length(6);
  });

  it('creates the same state (ids and times aside), and refuses a duplicate with the same error', async () => {
    await checkContract(t.url, ws.key, {
      name: 'create',
      rest: { method: 'POST', path: '/public/v2/verification_states', body: { verification_state: { name: 'Lunch', value: '10' } } },
      graphql: {
        query: `mutation { createVerificationState(input: { name: "Lunch", value: "11" }) { ${fields} } }`,
        field: 'createVerificationState',
      },
      status: 201,
      normalize: (d) => ({ ...(withoutVolatile()(d) as object), value: 'x' }),
    });
    await checkContract(t.url, ws.key, {
      name: 'duplicate',
      rest: { method: 'POST', path: '/public/v2/verification_states', body: { name: 'Again', value: '0' } },
      graphql: { query: `mutation { createVerificationState(input: { name: "Again", value: "0" }) { id } }`, field: 'createVerificationState' },
      code: 'validation_failed',
    });
    await checkContract(t.url, ws.key, {
      name: 'bad value',
      rest: { method: 'POST', path: '/public/v2/verification_states', body: { name: 'Bad', value: '300' } },
      graphql: { query: `mutation { createVerificationState(input: { name: "Bad", value: "300" }) { id } }`, field: 'createVerificationState' },
      code: 'validation_failed',
    });
  });

  it('gets, updates and deletes alike; an unknown id is not_found on both', async () => {
    const { rest: missing } = await checkContract(t.url, ws.key, {
      name: 'get',
      rest: { method: 'GET', path: '/public/v2/verification_states/0' },
      graphql: { query: `{ verificationState(id: 0) { id } }`, field: 'verificationState' },
      code: 'not_found',
    });
    expect(missing.error.code).to.equal('not_found');
    const states = (
      await checkContract(t.url, ws.key, {
        name: 'list again',
        rest: { method: 'GET', path: '/public/v2/verification_states' },
        graphql: { query: `{ verificationStates { nodes { ${fields} } } }`, field: 'verificationStates' },
      })
    ).rest as any[];
    const breakIn = states.find((s) => s.value === '3');
    await checkContract(t.url, ws.key, {
      name: 'get one',
      rest: { method: 'GET', path: `/public/v2/verification_states/${breakIn.id}` },
      graphql: { query: `{ verificationState(id: ${breakIn.id}) { ${fields} } }`, field: 'verificationState' },
    });
    await checkContract(t.url, ws.key, {
      name: 'update',
      rest: { method: 'PUT', path: `/public/v2/verification_states/${breakIn.id}`, body: { name: 'Back from break' } },
      graphql: {
        query: `mutation { updateVerificationState(id: ${breakIn.id}, input: { name: "Back from break" }) { ${fields} } }`,
        field: 'updateVerificationState',
      },
      normalize: withoutVolatile(['updated_at']),
    });
    const other = await createWorkspace(t.url);
    await checkContract(t.url, other.key, {
      name: 'foreign delete',
      rest: { method: 'DELETE', path: `/public/v2/verification_states/${breakIn.id}` },
      graphql: { query: `mutation { deleteVerificationState(id: ${breakIn.id}) { id } }`, field: 'deleteVerificationState' },
      code: 'not_found',
    });
  });
});
