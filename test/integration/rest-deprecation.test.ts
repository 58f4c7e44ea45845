// A deprecated REST route (docs/change-policy.md): a fixture route marked `deprecated`, served by the
// real router on the real service's schema, database and keys, answers with Deprecation (RFC 9745)
// and Sunset (RFC 8594) headers, errors included; the OpenAPI document marks it `deprecated: true`;
// a notice shorter than the policy's stops the router from being built.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expect } from 'chai';
import { buildOpenApi } from '../../src/rest/openapi';
import { createRestRouter } from '../../src/rest/rest-router';
import { DEPRECATION_NOTICE_DAYS, type RestRoute } from '../../src/rest/route';
import { employeeRoutes } from '../../src/rest/employee.routes';
import { createContextFactory } from '../../src/services/identity/request-context-factory';
import { startTestApp, type TestApp } from '../support/test-app';

const listEmployees = employeeRoutes.find((route) => route.name === 'listEmployees')!;
/** The fixture: the employee list under an old path, deprecated for the current one. */
const legacyEmployees: RestRoute = {
  ...listEmployees,
  name: 'listStaff',
  path: '/public/v2/staff',
  deprecated: { since: '2026-12-01', sunset: '2027-06-30', reason: 'Renamed: use GET /public/v2/employees.', successor: '/public/v2/employees' },
};

describe('REST deprecation headers and the OpenAPI deprecated flag', () => {
  let app: TestApp;
  let server: http.Server;
  let url: string;

  before(async () => {
    app = await startTestApp({}, 'rest-deprecation');
    const contextFactory = createContextFactory({ orm: app.app.database.orm, config: app.config, logger: app.app.logger });
    const router = createRestRouter({
      routes: [legacyEmployees, listEmployees],
      schema: app.app.schema,
      contextFactory,
      config: app.config,
      logger: app.app.logger,
    });
    const fixture = express();
    fixture.use((_req, res, next) => {
      res.locals.requestId = 'fixture';
      next();
    });
    fixture.use(router);
    server = fixture.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await app?.stop();
  });

  it('a deprecated route answers with Deprecation, Sunset and its successor, beside the paging links', async () => {
    const response = await fetch(`${url}/public/v2/staff?per_page=1`, { headers: { Authorization: `Bearer ${app.adminKey}` } });
    expect(response.status).to.equal(200);
    expect(response.headers.get('deprecation')).to.equal(`@${Date.parse('2026-12-01T00:00:00Z') / 1000}`);
    expect(response.headers.get('sunset')).to.equal('Wed, 30 Jun 2027 23:59:59 GMT');
    const link = response.headers.get('link')!;
    expect(link).to.contain('</public/v2/employees>; rel="successor-version"');
    expect(link).to.contain('rel="first"');
  });

  it('errors of a deprecated route carry the headers too; a route that is not deprecated carries none', async () => {
    const refused = await fetch(`${url}/public/v2/staff`);
    expect(refused.status).to.equal(401);
    expect(refused.headers.get('deprecation')).to.match(/^@\d+$/);
    const current = await fetch(`${url}/public/v2/employees`, { headers: { Authorization: `Bearer ${app.adminKey}` } });
    expect(current.status).to.equal(200);
    expect(current.headers.get('deprecation')).to.equal(null);
    expect(current.headers.get('sunset')).to.equal(null);
  });

  it('the OpenAPI document marks the operation deprecated and says why and until when', () => {
    const document = buildOpenApi([legacyEmployees, listEmployees], app.app.schema, '0.1.0') as {
      paths: Record<string, Record<string, { deprecated?: boolean; description: string }>>;
    };
    expect(document.paths['/public/v2/staff']!.get!.deprecated).to.equal(true);
    expect(document.paths['/public/v2/staff']!.get!.description).to.match(
      /^\*\*Deprecated\*\* since 2026-12-01, removed after 2027-06-30 .*Renamed: use GET \/public\/v2\/employees\./,
    );
    expect(document.paths['/public/v2/employees']!.get!.deprecated).to.equal(undefined);
  });

  it(`a deprecation with less than ${DEPRECATION_NOTICE_DAYS} days' notice, or without a reason, is refused when the router is built`, () => {
    const contextFactory = createContextFactory({ orm: app.app.database.orm, config: app.config, logger: app.app.logger });
    const build = (deprecated: RestRoute['deprecated']) => () =>
      createRestRouter({ routes: [{ ...legacyEmployees, deprecated }], schema: app.app.schema, contextFactory, config: app.config, logger: app.app.logger });
    expect(build({ since: '2026-12-01', sunset: '2027-03-01', reason: 'Renamed.' })).to.throw(/kept at least 180 days/);
    expect(build({ since: '2026-12-01', sunset: '2027-13-01', reason: 'Renamed.' })).to.throw(/deprecated.sunset must be a date/);
    expect(build({ since: '2026-12-01', sunset: '2027-06-30', reason: ' ' })).to.throw(/must say why/);
  });
});
