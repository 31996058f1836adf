#!/usr/bin/env node
// The `cairn` command: the built CLI (out/main/cli.js) when it is current, which starts about
// four times faster; else the TypeScript source through tsx, so it works right after `npm ci`
// and while the source is being edited. Either way it says nothing about the choice.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentBundle } from './current-bundle.mjs';

const require = createRequire(import.meta.url);
const bundle = currentBundle(join(dirname(fileURLToPath(import.meta.url)), '..'));
if (bundle !== null) require(bundle);
else {
  const { register } = await import('tsx/cjs/api');
  register();
  // The CLI loads each command group with import() (command-groups.ts): TypeScript there too.
  (await import('tsx/esm/api')).register();
  require('../src/main/cli/main.ts');
}
