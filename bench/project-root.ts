/**
 * The project's root: the nearest folder above this code holding package.json. The benchmarks
 * run bundled from out/bench/ and, in a test or a probe, from bench/ itself, so their folders
 * (results, the built renderer) are found from the root, not from where the code sits.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function projectRoot(from: string = __dirname): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${from}`);
    folder = parent;
  }
  return folder;
}
