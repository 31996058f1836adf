/**
 * Where the app keeps its own files. The desktop shell, browser mode and the CLI agree on
 * one data directory (Electron's userData for an app named "cairn"), so a store made in one
 * is found by the others. `CAIRN_DATA_DIR` overrides it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'cairn';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (env.CAIRN_DATA_DIR) return env.CAIRN_DATA_DIR;
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/** The embedded default store: a local directory inside the data directory. */
export function embeddedStoreDir(dataDir: string): string {
  return join(dataDir, 'cairn-data');
}
