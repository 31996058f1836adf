#!/usr/bin/env node
// Runs one TypeScript entry (benchmarks, fixture scripts, test children) through tsx.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { register } from 'tsx/cjs/api';

// The SDK version is pinned (see package.json): its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: run-ts FILE.ts [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
createRequire(import.meta.url)(resolve(entry));
