/** The app's version, read from package.json at run time in every shell. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function appVersion(projectRoot: string): string {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? '0.0.0';
}
