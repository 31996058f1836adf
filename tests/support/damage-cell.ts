/** Bad input on disk: a cell of a local store gets a newest version that is not JSON. */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes the next version of the cell stored in `cellDir` (`<store>/<cell key>`). */
export async function damageCell(cellDir: string): Promise<void> {
  const versions = (await readdir(cellDir)).filter((name) => /^\d{20}\.json$/.test(name)).sort();
  const next = Number(versions.at(-1)?.slice(0, 20) ?? '0') + 1;
  await writeFile(join(cellDir, `${String(next).padStart(20, '0')}.json`), '{"fields": {');
}
