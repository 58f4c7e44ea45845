#!/usr/bin/env node
// The `timegate` command: runs the compiled CLI (build first with `npm run build`).
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'src', 'cli', 'timegate.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('timegate is not built yet: run `npm run build` in ' + path.dirname(__dirname) + '\n');
  process.exit(1);
}
require(entry).main(process.argv.slice(2));
