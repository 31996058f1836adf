// `npm start`: builds the app and opens the desktop window; where Electron's binary cannot
// be had, says so in one line and serves the same console in browser mode instead.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary, tryInstallElectron } from './electron-binary.mjs';
import { electronJsFlags, ENGINE_HOST_V8_FLAGS } from './engine-host-flags.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(
  process.execPath,
  [join(projectRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
  {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const binary =
  electronBinary(projectRoot) ??
  (tryInstallElectron(projectRoot) ? electronBinary(projectRoot) : null);
const child = binary
  ? spawn(binary, [electronJsFlags(), projectRoot], { cwd: projectRoot, stdio: 'inherit' })
  : (console.log(
      "Electron's binary is not installed and cannot be downloaded here: starting the browser mode instead.",
    ),
    // The built CLI (out/main/cli.js), not bin/cairn.mjs's tsx: the engine's host runs the
    // bundled code Electron's main process would.
    spawn(
      process.execPath,
      [
        ...ENGINE_HOST_V8_FLAGS,
        join(projectRoot, 'out', 'main', 'cli.js'),
        'serve',
        ...process.argv.slice(2),
      ],
      { cwd: projectRoot, stdio: 'inherit' },
    ));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
