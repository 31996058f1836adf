/**
 * `npm run screenshots` still makes the pictures the docs show, from today's console: the
 * e2e stage runs the script (the build is current here) into a scratch folder and checks it
 * made every picture docs/screenshots.json names - same files, views and prefixes, each a
 * PNG of the recorded viewport. The bytes differ from run to run (relative times, the scratch
 * data directory's name), so the committed pictures' hashes are checked by
 * tests/launch/screenshots-manifest.test.ts instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from './fixtures';

const root = resolve(__dirname, '..', '..');

interface Manifest {
  readonly viewport: { readonly width: number; readonly height: number };
  readonly shots: ReadonlyArray<{ file: string; view: string; prefix?: string }>;
}

const manifestOf = (folder: string): Manifest =>
  JSON.parse(readFileSync(join(folder, 'screenshots.json'), 'utf8')) as Manifest;

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1'), file).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('npm run screenshots makes every picture the manifest names', ({ store }) => {
  test.skip(store.kind !== 'local', 'the script makes its own demo data in a local store');
  test.setTimeout(120_000);
  const out = mkdtempSync(join(tmpdir(), 'cairn-shots-'));
  try {
    const run = spawnSync(
      process.execPath,
      [join(root, 'bin', 'run-ts.mjs'), join(root, 'scripts', 'screenshots.ts'), '--out', out],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const committed = manifestOf(join(root, 'docs'));
    const made = manifestOf(out);
    const shown = (manifest: Manifest) =>
      manifest.shots.map(({ file, view, prefix }) => ({ file, view, prefix }));
    expect(shown(made)).toEqual(shown(committed));
    for (const shot of made.shots)
      expect(pngSize(join(out, shot.file)), shot.file).toEqual(committed.viewport);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
