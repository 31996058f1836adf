/**
 * The project's root: the nearest folder above this code holding package.json. The same code
 * runs from its source (under tsx: tests, `npx cairn`) and bundled (`out/main/cli.js` for
 * `npm start`'s browser mode, `out/bench/index.js`), so the project's folders (the built
 * renderer, the bench's results) are found from the root, not from where the code sits.
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
