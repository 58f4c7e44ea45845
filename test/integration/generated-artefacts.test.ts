import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm-config';
import { buildTimegateSchema, schemaSdl } from '../../src/graphql/build-schema';
import { freshDatabaseUrl } from '../support/database';

const root = path.resolve(__dirname, '..', '..', '..');

describe('generated artefacts stay true', () => {
  it('schema.graphql is the SDL the resolvers produce (run `npm run schema:emit` after a schema change)', async () => {
    const committed = fs.readFileSync(path.join(root, 'schema.graphql'), 'utf8');
    expect(schemaSdl(await buildTimegateSchema()), 'schema.graphql is stale: run `npm run schema:emit`').to.equal(committed);
  });

  it('the committed migrations create exactly the schema the entities describe (run `npm run migration:create`)', async () => {
    const orm = await MikroORM.init(ormOptions(await freshDatabaseUrl('migrations')));
    try {
      await orm.migrator.up();
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim(), 'entities changed without a migration: run `npm run migration:create`').to.equal('');
    } finally {
      await orm.close(true);
    }
  });
});
