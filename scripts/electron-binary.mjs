// Finds Electron's binary without triggering the on-demand download that `require('electron')`
// starts, and tries that download once, quietly, with a time limit.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function electronBinary(projectRoot) {
  const packageDir = join(projectRoot, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const candidate = join(dist, relative);
  return existsSync(pathFile) && existsSync(candidate) ? candidate : null;
}

export function tryInstallElectron(projectRoot) {
  const installer = join(projectRoot, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return false;
  const result = spawnSync(process.execPath, [installer], {
    cwd: projectRoot,
    stdio: 'ignore',
    timeout: 120_000,
  });
  return result.status === 0 && electronBinary(projectRoot) !== null;
}
