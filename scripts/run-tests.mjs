// `npm test`: builds the renderer, runs vitest (unit, contract, crash and fault tests) and
// Playwright (e2e in Chromium over browser mode), then prints one closing line
// `N passed, N failed, N skipped` summed from both runners' JSON reports.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
const bin = (name) => join(root, 'node_modules', '.bin', name);
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

if (!process.env.CAIRN_S3_ENDPOINT) {
  console.log('S3 lanes skipped: CAIRN_S3_ENDPOINT is not set (see README, "Testing against S3").');
}

const buildStatus = run(bin('electron-vite'), ['build']);
const vitestJson = join(results, 'vitest.json');
const vitestStatus = run(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
  { NO_COLOR: '1' },
);
const playwrightJson = join(results, 'playwright.json');
const playwrightStatus =
  buildStatus === 0
    ? run(bin('playwright'), ['test', '--reporter=list,json'], {
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
      })
    : 1;

const vitest = readJson(vitestJson);
const playwright = readJson(playwrightJson);
const passed =
  (vitest?.numPassedTests ?? 0) +
  (playwright?.stats?.expected ?? 0) +
  (playwright?.stats?.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
const skipped =
  (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (playwright?.stats?.skipped ?? 0);
const broken = [
  buildStatus !== 0 && 'the build failed',
  vitest === null && 'vitest wrote no report',
  playwright === null && 'Playwright wrote no report',
  vitestStatus !== 0 && failed === 0 && 'vitest exited non-zero',
  playwrightStatus !== 0 && failed === 0 && 'Playwright exited non-zero',
].filter(Boolean);
if (broken.length > 0) console.log(`Test run incomplete: ${broken.join('; ')}.`);
const failures = failed + (broken.length > 0 && failed === 0 ? 1 : 0);
console.log(`${passed} passed, ${failures} failed, ${skipped} skipped`);
process.exit(failures > 0 ? 1 : 0);
