import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { openApiText } from '../../src/cli/emit-openapi';
import { routeTable } from '../../src/rest/route-table';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

const root = path.resolve(__dirname, '..', '..', '..');

describe('OpenAPI document', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'openapi');
  });
  after(() => t.stop());

  it('the committed openapi.json is what the route table produces (run `npm run openapi:emit`)', async () => {
    expect(await openApiText(), 'openapi.json is stale: run `npm run openapi:emit`').to.equal(fs.readFileSync(path.join(root, 'openapi.json'), 'utf8'));
  });

  it('is served at /openapi.json without a key and lists every route of the table', async () => {
    const r = await rest(t.url, 'GET', '/openapi.json');
    expect(r.status).to.equal(200);
    expect(r.body.openapi).to.equal('3.1.0');
    for (const route of routeTable) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const op = r.body.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path} missing from the OpenAPI document`).to.be.an('object');
      expect(op.operationId).to.equal(route.name);
    }
  });

  it('every request example validates against the schema the router checks, flat and wrapped', async () => {
    const { body: doc } = await rest(t.url, 'GET', '/openapi.json');
    const ajv = new Ajv({ strict: false });
    for (const route of routeTable.filter((r) => r.body)) {
      const content = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()].requestBody.content['application/json'];
      const validate = ajv.compile(content.schema);
      expect(validate(content.example), `${route.name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      expect(ajv.validate(route.body!.schema, content.example), `${route.name} against the router's schema`).to.equal(true);
      if (route.body!.wrapper) expect(validate({ [route.body!.wrapper]: content.example }), `${route.name} wrapped`).to.equal(true);
    }
  });

  it('response schemas describe what the API returns', async () => {
    const { body: doc } = await rest(t.url, 'GET', '/openapi.json');
    const company = await rest(t.url, 'POST', '/public/v2/companies', { key: t.adminKey, body: { name: 'Doc', code: 'DOC' } });
    const schema = doc.paths['/public/v2/companies']['post'].responses['201'].content['application/json'].schema;
    const ajv = new Ajv({ strict: false });
    ajv.addFormat('date-time', true);
    expect(ajv.validate(schema, company.body), JSON.stringify(ajv.errors)).to.equal(true);
    const list = await rest(t.url, 'GET', '/public/v2/companies', { key: t.adminKey });
    expect(ajv.validate(doc.paths['/public/v2/companies']['get'].responses['200'].content['application/json'].schema, list.body)).to.equal(true);
    expect(ajv.validate(doc.components.schemas.Error, (await rest(t.url, 'GET', '/public/v2/companies/999', { key: t.adminKey })).body)).to.equal(true);
  });

  it('serves a browsable docs page and its assets from the package (no CDN)', async () => {
    const page = await rest(t.url, 'GET', '/docs');
    expect(page.status).to.equal(200);
    expect(page.text)
      .to.contain('/docs/assets/swagger-ui-bundle.js')
      .and.not.match(/https?:\/\//);
    const bundle = await fetch(`${t.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    expect((await bundle.text()).length).to.be.greaterThan(100_000);
  });
});
