/**
 * Figure: probe latency while one socket floods (issue #16). A browser-mode server on a
 * throwaway data directory; one socket stops reading and sends 2,000 `objects.get` of a 1 MiB
 * object; meanwhile a second socket sends `app.info` probes one after another. The value is
 * the p99 probe round trip; the per-socket limits keep it low by leaving the flood unread.
 * Target < 100 ms. Local store only (the flood reads the embedded store).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { embeddedStoreDir } from '../../src/main/services/app-paths';
import { startBenchServer } from './bench-server';
import { SOCKET_LIMITS } from '../../src/main/web/socket-session';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { judged, percentile, type FigureResult } from '../harness';

const FLOOD_CALLS = 2000;
const OBJECT_BYTES = 1024 * 1024;
const PROBES = 200;

export async function socketFlood(): Promise<FigureResult[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-bench-flood-'));
  const { server, services } = await startBenchServer(dataDir, dataDir);
  try {
    const io = new LocalObjectIo(embeddedStoreDir(dataDir));
    await io.putIfAbsent('bench/flood', new Uint8Array(OBJECT_BYTES).fill(1));
    const url = `ws://127.0.0.1:${server.port}/api?token=${server.token}`;
    const flood = await opened(new WebSocket(url));
    const probe = await opened(new WebSocket(url));
    flood.pause();
    const frame = encodeWire({ connectionId: 'embedded', key: 'bench/flood' });
    for (let id = 1; id <= FLOOD_CALLS; id++) flood.send(`${id}\nobjects.get\n${frame}`);
    const rssBefore = process.memoryUsage().rss;
    const latencies: number[] = [];
    for (let id = 1; id <= PROBES; id++) {
      const started = performance.now();
      await roundTrip(probe, id);
      latencies.push(performance.now() - started);
    }
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    flood.terminate();
    probe.close();
    const p99 = percentile(latencies, 99);
    return [
      {
        figure: 'socket flood: p99 probe round trip while one socket floods 2,000 1 MiB reads',
        backend: 'local',
        value: p99,
        unit: 'ms',
        ...judged(p99, '<', 100),
        detail: {
          probes: PROBES,
          p50ms: Math.round(percentile(latencies, 50) * 10) / 10,
          maxMs: Math.round(Math.max(...latencies) * 10) / 10,
          rssGrowthMB: Math.round(rssGrowth / 1e6),
          maxCallsInFlight: SOCKET_LIMITS.maxCallsInFlight,
          maxQueuedBytes: SOCKET_LIMITS.maxQueuedBytes,
        },
      },
    ];
  } finally {
    await server.close();
    await services.wal.closeAll();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function opened(socket: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function roundTrip(socket: WebSocket, id: number): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      if ((decodeWire(data.toString()) as { id?: number }).id !== id) return;
      socket.off('message', onMessage);
      resolve();
    };
    socket.on('message', onMessage);
    socket.send(`${id}\napp.info\n${encodeWire({})}`);
  });
}
