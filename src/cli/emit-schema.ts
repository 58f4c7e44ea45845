import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { buildTimegateSchema, schemaSdl } from '../graphql/build-schema';

/** `npm run schema:emit`: writes the GraphQL SDL to schema.graphql at the project root. */
export const schemaFile = path.resolve(__dirname, '..', '..', '..', 'schema.graphql');

async function main(): Promise<void> {
  fs.writeFileSync(schemaFile, schemaSdl(await buildTimegateSchema()));
  process.stdout.write(`wrote ${schemaFile}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
