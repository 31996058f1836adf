/**
 * The store threads start from evaluated CommonJS whatever Node options the host runs with:
 * under `node --input-type=module` (which a worker would inherit, and which makes evaluated
 * source an ES module with no `require`) the tail-read thread still answers reads and the S3
 * thread still loads the SDK and sends a create.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const projectRoot = resolve(__dirname, '..', '..');
const packageJson = join(projectRoot, 'package.json');

/** An ES module given with `-e`: loads the project's TypeScript through tsx. */
function moduleScript(body: string): string {
  return `
import { createRequire } from 'node:module';
const requireHere = createRequire(${JSON.stringify(packageJson)});
requireHere('tsx/cjs/api').register();
${body}
`;
}

function runAsEvaluatedModule(body: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', moduleScript(body)], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout };
}

describe('a store thread under a host started with --input-type=module', () => {
  it('reads on the tail-read thread', () => {
    const run = runAsEvaluatedModule(`
const { LocalReadThread } = requireHere('./src/main/engine/objectio/local-read-thread.ts');
const thread = new LocalReadThread(1);
thread.read(${JSON.stringify(packageJson)}, 0, 1); // made on the pool; starts the thread
while (thread.state === 'starting') await new Promise((wake) => setTimeout(wake, 10));
const read = await thread.read(${JSON.stringify(packageJson)}, 0, 1);
process.stdout.write(JSON.stringify({
  running: thread.running,
  answered: thread.answered,
  firstByte: read === null ? null : String.fromCharCode(read.bytes[0]),
}));
await thread.stop();
`);
    expect(run).toEqual({
      status: 0,
      stdout: JSON.stringify({ running: true, answered: 1, firstByte: '{' }),
    });
  });

  it('sends a create from the S3 thread', () => {
    const run = runAsEvaluatedModule(`
const { S3Thread } = requireHere('./src/main/engine/objectio/s3-thread.ts');
const { closeScriptedServers, scriptedS3, succeedWith } = requireHere('./tests/objectio/scripted-s3.ts');
const s3 = await scriptedS3(succeedWith());
const thread = new S3Thread();
const created = await s3.io({ thread }).putIfAbsent('key', new TextEncoder().encode('body'));
process.stdout.write(JSON.stringify({ created, bodies: s3.bodies.map((body) => body.toString()) }));
await thread.stop();
await closeScriptedServers();
`);
    expect(run).toEqual({
      status: 0,
      stdout: JSON.stringify({ created: { etag: 'e1' }, bodies: ['body'] }),
    });
  });
});
