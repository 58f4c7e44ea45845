import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../rest/api-docs';
import { routeTable } from '../rest/route-table';
import { buildTimegateSchema } from '../graphql/build-schema';

/** `npm run openapi:emit`: writes the committed openapi.json (a test fails when it is stale). */
export const openApiFile = path.resolve(__dirname, '..', '..', '..', 'openapi.json');

export async function openApiText(): Promise<string> {
  return `${JSON.stringify(openApiDocument(routeTable, await buildTimegateSchema()), null, 2)}\n`;
}

if (require.main === module) {
  openApiText().then(
    (text) => {
      fs.writeFileSync(openApiFile, text);
      process.stdout.write(`wrote ${openApiFile}\n`);
    },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
      process.exit(1);
    },
  );
}
