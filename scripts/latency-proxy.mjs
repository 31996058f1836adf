// The latency lane: a TCP proxy on 127.0.0.1 that adds a round-trip time (and optional jitter)
// in front of any TCP endpoint - an S3 on loopback made to answer like one in another region.
//
//   node scripts/latency-proxy.mjs --target 127.0.0.1:7480 --rtt 50 [--jitter 5] [--port 0]
//
// prints `http://127.0.0.1:<port>` as its only stdout line once it listens, and runs until it
// is sent SIGTERM or its stdin closes (so it never outlives the bench or test that started it).
//
// Each chunk goes on after half the round trip (plus up to `jitter` ms, never overtaking the
// chunk before it, so TCP's order holds), both ways: a request and its answer take one RTT more
// than on loopback. A new connection's first bytes wait one RTT more, as a TCP handshake would.
// It never listens beyond 127.0.0.1 and never connects anywhere but its target.
import net from 'node:net';
import process from 'node:process';

/** A source's pending bytes above which it is paused until the far side catches up. */
const HIGH_WATER = 16 * 1024 * 1024;

function parseArgs(argv) {
  const options = { target: null, rttMs: 50, jitterMs: 0, port: 0 };
  for (let at = 0; at < argv.length; at += 2) {
    const [flag, value] = [argv[at], argv[at + 1]];
    if (flag === '--target') options.target = value;
    else if (flag === '--rtt') options.rttMs = Number(value);
    else if (flag === '--jitter') options.jitterMs = Number(value);
    else if (flag === '--port') options.port = Number(value);
    else throw new Error(`unknown flag ${flag}`);
  }
  const match = /^([^:]+):(\d+)$/.exec(options.target ?? '');
  if (match === null) throw new Error('--target HOST:PORT is required');
  for (const name of ['rttMs', 'jitterMs', 'port'])
    if (!Number.isFinite(options[name]) || options[name] < 0)
      throw new Error(`--${name} must be a non-negative number`);
  return { ...options, host: match[1], targetPort: Number(match[2]) };
}

/**
 * Forwards `from` to `to`, each chunk `delay()` ms after it arrived and never before `notBefore`
 * (the handshake), in order: one queue and one timer per direction, so chunks due in the same
 * millisecond still go in the order they came. Ends `to` once `from` ended and all went on.
 */
function forward(from, to, delay, notBefore) {
  const queue = [];
  let lastAt = 0;
  let pending = 0;
  let ended = false;
  let timer = null;
  const drain = () => {
    timer = null;
    const now = Date.now();
    while (queue.length > 0 && queue[0].at <= now) {
      const { chunk } = queue.shift();
      pending -= chunk.length;
      if (!to.destroyed) to.write(chunk);
    }
    if (pending <= HIGH_WATER / 2) from.resume();
    if (queue.length > 0) timer = setTimeout(drain, queue[0].at - now);
    else if (ended) to.end();
  };
  from.on('data', (chunk) => {
    const at = Math.max(lastAt, notBefore, Date.now() + delay());
    lastAt = at;
    queue.push({ at, chunk });
    pending += chunk.length;
    if (pending > HIGH_WATER) from.pause();
    timer ??= setTimeout(drain, at - Date.now());
  });
  from.on('end', () => {
    ended = true;
    if (queue.length === 0 && timer === null) to.end();
  });
}

function start(options) {
  const half = options.rttMs / 2;
  const delay = () => half + Math.random() * options.jitterMs;
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect({ host: options.host, port: options.targetPort });
    upstream.setNoDelay(true);
    const handshakeDone = Date.now() + options.rttMs;
    forward(client, upstream, delay, handshakeDone + half);
    forward(upstream, client, delay, 0);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.end());
  });
  server.listen(options.port, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
  });
  // Kept-alive connections never close on their own: the proxy ends with them open.
  process.on('SIGTERM', () => process.exit(0));
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

try {
  start(parseArgs(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`latency-proxy: ${error.message}\n`);
  process.exit(2);
}
