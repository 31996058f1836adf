/**
 * The latency lane of the bench and the tests: `scripts/latency-proxy.mjs` started in a process
 * of its own (its timers must not share the engine's event loop, or a busy engine would add to
 * the very latency it is measured against) in front of an S3 endpoint, adding `rttMs` to every
 * round trip. Stopped with the lane, and it exits on its own if this process goes away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '../src/main/project-root';

/** The RTT the cloud lane adds when none is asked for (quality.md, "The cloud lane"). */
export const DEFAULT_RTT_MS = 50;

export interface LatencyLane {
  /** `http://127.0.0.1:<port>`: the target as seen across the added round trip. */
  readonly endpoint: string;
  readonly rttMs: number;
  stop(): void;
}

/** The RTT asked for by `--rtt N` in `argv`, else `CAIRN_BENCH_RTT_MS`, else the default. */
export function rttOf(argv: readonly string[], env = process.env): number {
  const at = argv.indexOf('--rtt');
  const text = at >= 0 ? argv[at + 1] : env.CAIRN_BENCH_RTT_MS;
  const rtt = text === undefined ? DEFAULT_RTT_MS : Number(text);
  if (!Number.isFinite(rtt) || rtt < 0)
    throw new Error(`--rtt must be a number of ms, got ${text}`);
  return rtt;
}

export async function startLatencyLane(
  target: string,
  rttMs: number,
  jitterMs = 0,
  root: string = projectRoot(),
): Promise<LatencyLane> {
  const url = new URL(target);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'scripts', 'latency-proxy.mjs'),
      '--target',
      `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`,
      '--rtt',
      String(rttMs),
      '--jitter',
      String(jitterMs),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`latency proxy exited with ${code}`)));
    child.once('error', reject);
  });
  return {
    endpoint,
    rttMs,
    stop: () => {
      child.stdin?.end();
      child.kill('SIGTERM');
    },
  };
}
