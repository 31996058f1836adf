// Whether the built CLI (out/main/cli.js, from `npm run build`) is current: newer than every
// file and folder it is built from (a folder's time moves when a file in it is added, removed
// or renamed). About 300 `stat`s, a few milliseconds, and stops at the first newer one. Reads
// only; it never builds.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The bundle, relative to the project root. */
export const CLI_BUNDLE = join('out', 'main', 'cli.js');

/** The folders whose files the bundle is made of, and the files that shape its build. */
const SOURCE_FOLDERS = [join('src', 'main'), join('src', 'shared')];
const BUILD_FILES = ['package.json', 'electron.vite.config.ts', 'tsconfig.base.json'];

function modifiedAtMs(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** True when `path` (a folder: it or anything under it) changed after `since`. */
function changedAfter(path, since) {
  const at = modifiedAtMs(path);
  if (at === null) return false;
  if (at > since) return true;
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return false; // A file: its own time said it all.
  }
  return entries.some((entry) =>
    entry.isDirectory()
      ? changedAfter(join(path, entry.name), since)
      : (modifiedAtMs(join(path, entry.name)) ?? 0) > since,
  );
}

/** The bundle's path when it exists and no source changed after it was built, else null. */
export function currentBundle(projectRoot) {
  const bundle = join(projectRoot, CLI_BUNDLE);
  const builtAt = modifiedAtMs(bundle);
  if (builtAt === null) return null;
  const sources = [...SOURCE_FOLDERS, ...BUILD_FILES].map((path) => join(projectRoot, path));
  return sources.some((path) => changedAfter(path, builtAt)) ? null : bundle;
}
