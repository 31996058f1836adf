/**
 * Names people read back are safe to show (issue #16): the API and the CLI refuse control and
 * bidi characters in connection names and placement labels, and `cairn connections ls`
 * prints any such character already saved (older data) escaped, never raw to the terminal.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeUnsafeText } from '../../src/shared/display-text';
import { makeTestApp, type TestApp } from '../support/app-services';
import { runCairn } from '../support/cairn-cli';
import { failureOf } from '../support/typed-failure';

const HOSTILE = [
  ['ESC', 'prod\u001b[2J\u001b[31m'],
  ['BEL', 'ring\u0007'],
  ['a C1 control', 'csi\u009b31m'],
  ['U+202E', 'invoice\u202Efdp.exe'],
  ['U+2066', 'isolate\u2066x'],
  ['a newline', 'two\nlines'],
] as const;

let app: TestApp;
beforeAll(async () => {
  app = await makeTestApp();
});
afterAll(() => app.dispose());

describe('names with control or bidi characters', () => {
  it.each(HOSTILE)('refuses a connection named with %s', async (_what, name) => {
    const failure = await failureOf(
      app.router.call('connections.add', { kind: 'local', name, path: app.dataDir }),
    );
    expect(failure).toMatchObject({ code: 'InvalidInput', details: { field: 'name' } });
    const saved = (await app.router.call('connections.list', {})) as Array<{ name: string }>;
    expect(saved.map((c) => c.name)).not.toContain(name);
  });

  it.each(HOSTILE)('refuses a placement label with %s', async (_what, label) => {
    const failure = await failureOf(
      app.router.call('namespaces.put', {
        connectionId: 'embedded',
        name: 'orders',
        config: {},
        placement: { region: label },
      }),
    );
    expect(failure).toMatchObject({ code: 'InvalidInput', details: { field: 'placement.region' } });
  });

  it('still saves ordinary names, accents and other scripts included', async () => {
    for (const name of ['Prod (eu-west)', 'Café Zürich', 'מחסן', '倉庫'])
      expect(
        await app.router.call('connections.add', { kind: 'local', name, path: app.dataDir }),
      ).toMatchObject({ name });
  });

  it('refuses them in `cairn connections add` too', () => {
    const run = runCairn([
      'connections',
      'add-local',
      '--name',
      'evil\u001b]0;owned\u0007',
      '--path',
      app.dataDir,
      '--data-dir',
      app.dataDir,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('name');
  });

  it('prints a name already saved with them escaped in `cairn connections ls`', async () => {
    const profiles = HOSTILE.map(([, name], i) => ({
      kind: 'local',
      name,
      path: '/tmp',
      id: `old-${i}`,
    }));
    await writeFile(
      `${app.dataDir}/connections.json`,
      JSON.stringify({ version: 1, profiles }),
      'utf8',
    );
    const run = runCairn(['connections', 'ls', '--data-dir', app.dataDir]);
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2066]/u);
    for (const [, name] of HOSTILE) expect(run.stdout).toContain(escapeUnsafeText(name));
    expect(run.stdout).toContain('\\u{1b}[2J');
  });
});
