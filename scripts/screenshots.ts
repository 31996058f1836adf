/**
 * `npm run screenshots`: regenerates every picture README.md and docs/ show, from today's
 * console - browser mode (the built app, `cairn serve`) in Chromium over a fresh data directory
 * holding the demo data (`cairn demo`). Writes docs/<name>.png and docs/screenshots.json, the
 * manifest naming each picture's view, prefix and SHA-256, which CI checks
 * (tests/launch/screenshots-manifest.test.ts): a picture not made here fails it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/support/chromium';

const root = resolve(__dirname, '..');
const CLI = join(root, 'out', 'main', 'cli.js');
const VIEWPORT = { width: 1440, height: 900 };
const CAIRN_PREFIX = 'wal/nodes/0/generations/0';
const GREPTIME_PREFIX = 'datanodes/1/epochs/8';

interface Shot {
  /** The file under docs/. */
  readonly file: string;
  /** The navigation button of the view shown. */
  readonly view: string;
  /** The WAL prefix picked first (from the Overview), if the view shows one. */
  readonly prefix?: string;
}

const SHOTS: readonly Shot[] = [
  { file: 'overview.png', view: 'Overview' },
  { file: 'browser.png', view: 'Bucket browser' },
  { file: 'batches.png', view: 'Batches', prefix: CAIRN_PREFIX },
  { file: 'regions.png', view: 'Regions', prefix: CAIRN_PREFIX },
  { file: 'greptimedb.png', view: 'Batches', prefix: GREPTIME_PREFIX },
  { file: 'manifest.png', view: 'Manifest', prefix: CAIRN_PREFIX },
  { file: 'namespaces.png', view: 'Namespaces' },
  { file: 'segments.png', view: 'Tiered segments' },
  { file: 'connections.png', view: 'Connections' },
];

async function serve(dataDir: string) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout }).once('line', done);
    child.once('exit', (code) => fail(new Error(`cairn serve exited with ${code}`)));
  });
  return { url: (JSON.parse(first) as { url: string }).url, stop: () => child.kill('SIGTERM') };
}

/**
 * The view's reads answered and drawn (a picture, not a test): no spinner, no open or fleet
 * pass in progress, then a moment for the last paint. Waiting for that, not a fixed time,
 * keeps the whole run short enough for CI.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.pending, .spinner, .wal-progress') === null &&
      !document.body.innerText.includes('Reading prefixes'),
    undefined,
    { timeout: 20_000, polling: 100 },
  );
  await page.waitForTimeout(600);
}

async function take(page: Page, url: string, shot: Shot, out: string): Promise<void> {
  await page.goto(url);
  const nav = page.getByRole('navigation', { name: 'Views' });
  if (shot.prefix !== undefined) {
    await nav.getByRole('button', { name: 'Overview' }).click();
    await page
      .getByRole('table', { name: 'WAL prefixes' })
      .getByRole('button', { name: shot.prefix })
      .click();
  }
  await nav.getByRole('button', { name: shot.view, exact: true }).click();
  await settled(page);
  await page.screenshot({ path: join(out, shot.file) });
}

/** `--out DIR` writes the pictures and the manifest there (CI's check) instead of docs/. */
function outDir(args: readonly string[]): string {
  const at = args.indexOf('--out');
  return at < 0 ? join(root, 'docs') : resolve(args[at + 1] ?? '');
}

async function main(): Promise<void> {
  const out = outDir(process.argv.slice(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-screenshots-'));
  const demo = spawnSync(process.execPath, [CLI, 'demo', '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  if (demo.status !== 0) throw new Error(`cairn demo failed: ${demo.stderr}`);
  const server = await serve(dataDir);
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light' });
    for (const shot of SHOTS) await take(page, server.url, shot, out);
  } finally {
    await browser.close();
    server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const manifest = {
    madeBy: 'npm run screenshots (scripts/screenshots.ts)',
    at: new Date().toISOString(),
    viewport: VIEWPORT,
    data: 'cairn demo',
    shots: SHOTS.map((shot) => ({
      ...shot,
      sha256: createHash('sha256')
        .update(readFileSync(join(out, shot.file)))
        .digest('hex'),
    })),
  };
  writeFileSync(join(out, 'screenshots.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.log(`${out}: ${SHOTS.length} pictures and screenshots.json`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
