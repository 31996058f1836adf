#!/usr/bin/env node
// The `cairn` command: runs the TypeScript CLI through tsx, so it works right after `npm ci`.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

// The SDK version is pinned (see package.json): its notice about future releases is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
register();
createRequire(import.meta.url)('../src/main/cli/main.ts');
