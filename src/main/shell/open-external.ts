/**
 * The only way the app opens a URL outside itself (a lint rule forbids calling
 * `shell.openExternal` anywhere else): http(s) links only, never file:, javascript: or
 * custom schemes that could launch programs.
 */
export type OpenExternal = (url: string) => Promise<void>;

export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.username === '' &&
      parsed.password === ''
    );
  } catch {
    return false;
  }
}

/** Opens `url` with the system browser when it is safe; returns whether it was opened. */
export async function safeOpenExternal(url: string, open: OpenExternal): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await open(url);
  return true;
}
