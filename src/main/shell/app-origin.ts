/**
 * Whether a URL belongs to the app. Compared on scheme and host, because Node's URL gives
 * custom schemes an opaque origin ("null") while Chromium gives app:// a real one.
 */
export function isAppUrl(url: string, appOrigin: string): boolean {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}` === appOrigin;
  } catch {
    return false;
  }
}
