/** Small settings files written so that a crash never leaves half a file behind. */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What a settings file may weigh unless its reader says otherwise. */
export const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The file's JSON, or undefined when there is none. A file past `maxBytes` is refused before
 * it is read (a file Cairn keeps is never trusted to be the size Cairn wrote).
 */
export async function readJsonFile(path: string, maxBytes = MAX_JSON_FILE_BYTES): Promise<unknown> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new Error(`${path} holds ${size} bytes, past the ${maxBytes} this file may hold`);
    return JSON.parse(await handle.readFile('utf8')) as unknown;
  } finally {
    await handle.close();
  }
}

export async function writeJsonFileAtomic(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600, flush: true });
  await rename(temp, path);
}
