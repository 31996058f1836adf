/**
 * Appends text to a file and makes it durable before returning: open for append, write it
 * all, `fdatasync`, close. An audit entry written ahead of an action must survive a crash of
 * the action, so a write the page cache holds is not enough.
 */
import { open } from 'node:fs/promises';

export async function appendDurably(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a');
  try {
    await handle.writeFile(text);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
