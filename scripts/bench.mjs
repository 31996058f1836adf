// `npm run bench [-- NAME...]`: builds the app and the bundled bench (bench/vite.config.mts),
// then runs the bench in a process started as the app starts the engine's host, with its V8
// flags (engine-host-flags.mjs): the figures are those of the process the UI waits on.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_HOST_V8_FLAGS } from './engine-host-flags.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const binOf = (name, ...path) => join(projectRoot, 'node_modules', name, ...path);

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: projectRoot, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The figures are the runtime's as much as Cairn's: V8 tiers the S3 client's code up faster on
// Node 22 (a new CLI process's verify took 3.4-3.7 s of CPU there against 3.8-5.0 on 20).
const [major, minor] = process.versions.node.split('.').map(Number);
if (!((major === 22 && minor >= 13) || major >= 24))
  console.warn(
    `bench: Node ${process.versions.node} is below package.json's engines (^22.13.0 || >=24): ` +
      'these figures are not those of a supported runtime; `. .ci/supported-node.sh && ' +
      'use_supported_node` puts one first on PATH.',
  );

run([binOf('electron-vite', 'bin', 'electron-vite.js'), 'build']);
run([binOf('vite', 'bin', 'vite.js'), 'build', '-c', join('bench', 'vite.config.mts')]);
run([...ENGINE_HOST_V8_FLAGS, join('out', 'bench', 'index.js'), ...process.argv.slice(2)]);
