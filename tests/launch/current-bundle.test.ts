/**
 * Which code `cairn` runs (bin/current-bundle.mjs): the built CLI only while it is newer than
 * every source file and folder and the build's own files; any edit, added or removed file
 * after the build sends it back to the source (tsx) until the next build.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ES module: bin/cairn.mjs decides with it before any TypeScript loads
import * as bundleModule from '../../bin/current-bundle.mjs';

const { currentBundle } = bundleModule as { currentBundle: (root: string) => string | null };

const root = mkdtempSync(join(tmpdir(), 'cairn-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BUILT_AT = new Date('2026-06-01T12:00:00Z');
const BEFORE = new Date('2026-06-01T11:00:00Z');
const AFTER = new Date('2026-06-01T13:00:00Z');

function write(path: string, at: Date): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), 'x');
  utimesSync(join(root, path), at, at);
}

function stamp(path: string, at: Date): void {
  utimesSync(join(root, path), at, at);
}

/** A project whose every source is older than its bundle, folders included. */
function builtProject(): void {
  rmSync(root, { recursive: true, force: true });
  write('package.json', BEFORE);
  write('electron.vite.config.ts', BEFORE);
  write('tsconfig.base.json', BEFORE);
  write('src/main/cli/main.ts', BEFORE);
  write('src/main/engine/wal/store.ts', BEFORE);
  write('src/shared/wire.ts', BEFORE);
  for (const folder of ['src/main/cli', 'src/main/engine/wal', 'src/main/engine', 'src/main'])
    stamp(folder, BEFORE);
  stamp('src/shared', BEFORE);
  write('out/main/cli.js', BUILT_AT);
}

describe('the bundle cairn runs', () => {
  it('is the built CLI while every source is older', () => {
    builtProject();
    expect(currentBundle(root)).toBe(join(root, 'out', 'main', 'cli.js'));
  });

  it('is none when there is no build', () => {
    builtProject();
    rmSync(join(root, 'out'), { recursive: true });
    expect(currentBundle(root)).toBeNull();
  });

  it.each([
    ['a source edited after the build', 'src/main/engine/wal/store.ts'],
    ['a shared module edited', 'src/shared/wire.ts'],
    ['a file removed from a folder (the folder changed)', 'src/main/engine/wal'],
    ['the build configuration edited', 'electron.vite.config.ts'],
    ['package.json edited', 'package.json'],
  ])('is none after %s', (_what, path) => {
    builtProject();
    stamp(path, AFTER);
    expect(currentBundle(root)).toBeNull();
  });
});
