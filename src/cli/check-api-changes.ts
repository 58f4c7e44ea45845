// `npm run api:check`: fails when schema.graphql or openapi.json breaks a client of the last release
// (docs/releases/<version>/) without the changelog listing it (docs/change-policy.md).
import path from 'node:path';
import { checkApiChanges } from './api-changes';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const result = await checkApiChanges(root);
  for (const change of result.breaking) console.log(`${result.unlisted.includes(change) ? 'UNLISTED' : 'listed  '} ${change.api} ${change.message}`);
  if (result.unlisted.length) {
    console.error(
      `${result.unlisted.length} breaking change(s) since ${result.release} not listed in CHANGELOG.md: add a "- **Breaking** ..." line naming each key in backticks under ## [Unreleased] (docs/change-policy.md).`,
    );
    process.exit(1);
  }
  console.log(`no unlisted breaking change since ${result.release} (${result.breaking.length} listed)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
