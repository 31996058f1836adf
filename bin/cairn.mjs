#!/usr/bin/env node
// The `cairn` command: runs the TypeScript CLI through tsx, so it works right after `npm ci`.
import { createRequire } from 'node:module';
import { register } from 'tsx/cjs/api';

register();
createRequire(import.meta.url)('../src/main/cli/main.ts');
