import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { expect } from 'chai';

const root = path.resolve(__dirname, '..', '..', '..');

interface MediaType {
  schema?: Record<string, unknown>;
  example?: unknown;
}
interface Response {
  $ref?: string;
  description?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response>;
}

const document = JSON.parse(fs.readFileSync(path.join(root, 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> };
};
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
// The same validator as the REST router's (src/rest/rest-router.ts); formats are the router's own patterns.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

/** Where an example does not fit its schema, as `operation where: error`; empty when it does. */
function misfit(operationId: string, where: string, media: MediaType): string[] {
  if (media.example === undefined) return [`${operationId} ${where}: no example`];
  if (!media.schema) return [];
  const validate = ajv.compile(media.schema);
  return validate(media.example) ? [] : (validate.errors ?? []).map((e) => `${operationId} ${where}: ${e.instancePath} ${e.message}`);
}

/** A 4xx answer of an operation: its own, or the shared one it refers to. */
function resolved(response: Response): Response {
  return response.$ref ? document.components.responses[response.$ref.split('/').pop()!]! : response;
}

/** Every REST operation is documented for an integrator: what it does, an example in and out, how it refuses. */
describe('OpenAPI completeness', () => {
  it('documents operations at all', () => {
    expect(operations.length).to.be.greaterThan(100);
  });

  it('every operation has a summary and a description saying what it does', () => {
    const missing = operations.filter((op) => {
      const said = (op.description ?? '').replace(/Runs the GraphQL (query|mutation) `\w+`\.$/, '').trim();
      return !op.summary?.trim() || said.length < 20;
    });
    expect(missing.map((op) => op.operationId)).to.deep.equal([]);
  });

  it('every JSON request body has an example that fits its schema', () => {
    const problems = operations.flatMap((op) => {
      const json = op.requestBody?.content['application/json'];
      return json ? misfit(op.operationId, 'request', json) : [];
    });
    expect(problems).to.deep.equal([]);
  });

  it('every success answer has an example that fits its schema (JSON, and CSV where the columns are fixed)', () => {
    const problems = operations.flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, response]) => {
          const content = response.content ?? {};
          const json = content['application/json'];
          const csv = content['text/csv'];
          const out = json ? misfit(op.operationId, status, json) : [];
          // A CSV answer of fixed columns shows them in its example's header row.
          const columns = /^Columns: (.+)\.$/.exec(String(csv?.schema?.description ?? ''))?.[1];
          if (csv && columns) {
            const header = String(csv.example ?? '').split('\r\n')[0];
            if (header !== columns.split(', ').join(',')) out.push(`${op.operationId} ${status} text/csv: example header ${JSON.stringify(header)}`);
          }
          return out;
        }),
    );
    expect(problems).to.deep.equal([]);
  });

  it('every operation lists its 4xx answers, each described with the error body', () => {
    const problems: string[] = [];
    for (const op of operations) {
      const statuses = Object.keys(op.responses);
      const expected = ['401', '403', '422', '429'];
      if (op.parameters?.some((p) => p.in === 'path')) expected.push('404');
      if (op.requestBody?.content['application/json']) expected.push('400', '413', '415');
      for (const status of expected) if (!statuses.includes(status)) problems.push(`${op.operationId}: no ${status}`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (!status.startsWith('4')) continue;
        const answer = resolved(response);
        const schema = answer?.content?.['application/json']?.schema;
        if (!answer?.description?.startsWith(`${status}: `)) problems.push(`${op.operationId} ${status}: no description naming its codes`);
        if (schema?.$ref !== '#/components/schemas/Error') problems.push(`${op.operationId} ${status}: not the error body`);
      }
    }
    expect(problems).to.deep.equal([]);
  });
});
