import fs from 'node:fs';
import path from 'node:path';
import { sdkSettings, settings } from '../config/config';

/** `npm run docs:config`: rewrites the configuration table of README.md from src/config/config.ts. */
const readme = path.resolve(__dirname, '..', '..', '..', 'README.md');
const start = '<!-- config:start -->';
const end = '<!-- config:end -->';

const rows = [...Object.values(settings), ...sdkSettings].map((s) => `| \`${s.env}\` | ${s.default} | ${s.meaning} |`);
const table = ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
const text = fs.readFileSync(readme, 'utf8');
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`README.md needs ${start} and ${end} around the configuration table`);
fs.writeFileSync(readme, `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`);
process.stdout.write(`wrote the configuration table of ${readme}\n`);
