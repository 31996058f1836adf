/**
 * A clean stderr: the AWS SDK's Node-version notice never reaches it (checked on S3 with the
 * silencing variable unset, as a user's shell has it), and the CLI's own line about the
 * runtime appears only on a Node older than the CLI runs on (the README's floor for it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OLDEST_SUPPORTED_NODE, runtimeNotice } from '../../src/main/cli/runtime-notice';
import { runCairn } from '../support/cairn-cli';
import { s3Lane } from '../support/s3';

/** The environment of a shell that never heard of the SDK's notice. */
const USER_SHELL = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined };

describe('the line about the runtime', () => {
  it('is one line on a Node older than the oldest supported, none from it on', () => {
    for (const old of ['18.20.4', 'v20.18.3', '16.0.0']) {
      const notice = runtimeNotice(old);
      expect(notice).toMatch(/^cairn: Node \d+\.\d+\.\d+ is older than 20\.19\.0/);
      expect(notice).not.toMatch(/\n/);
    }
    for (const supported of ['20.19.0', 'v20.20.2', '22.13.1', '24.0.0'])
      expect(runtimeNotice(supported)).toBeNull();
  });

  it('is the floor the README states for the CLI, below the one engines sets for developing', () => {
    const root = resolve(__dirname, '..', '..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    // Words, not line breaks: the README is rewrapped as it changes.
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const [major, minor] = OLDEST_SUPPORTED_NODE.split('.');
    expect(readme).toContain(`also run on Node ${major}.${minor}+`);
    const developing = /^\^(\d+\.\d+)\.0 /.exec(pkg.engines.node)?.[1];
    expect(readme).toContain(`Node ${developing}+ or 24+ to develop`);
  });
});

const lane = s3Lane();
describe.skipIf(!lane)('stderr of a command on S3', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-runtime-'));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await lane?.dispose();
  });

  it('holds nothing when the command succeeds, whatever the Node', async () => {
    const io = await lane!.makeIo('runtime-notice');
    await io.putIfAbsent('a/one', new Uint8Array([1]));
    const listed = runCairn(
      [
        'objects',
        'ls',
        'a/',
        '--bucket',
        io.bucket,
        '--s3-endpoint',
        String(lane!.settings.endpoint),
        '--path-style',
      ],
      {
        ...USER_SHELL,
        AWS_ACCESS_KEY_ID: process.env.CAIRN_S3_ACCESS_KEY,
        AWS_SECRET_ACCESS_KEY: process.env.CAIRN_S3_SECRET_KEY,
        CAIRN_DATA_DIR: dir,
      },
    );
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/a\/one/);
  });
});
