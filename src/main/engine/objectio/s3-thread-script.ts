/**
 * What runs on the S3 thread (`S3Thread`): plain CommonJS, evaluated as the thread's script, so
 * there is nothing to bundle. It loads the SDK from the path it is given, keeps two clients per
 * store (one with the SDK's retries, one that sends a conditional create once), runs each
 * command it is sent and answers with the output, the body as bytes (moved, not copied) with
 * the checksum a read asked for, and what the SDK threw as plain fields; a pooled create
 * body's buffer goes back with a successful answer, never with a failed one (a server that
 * answered early may not have read it all, and the socket may still be sending from it). It
 * decides nothing: mapping and policy stay with the caller.
 */
export const S3_THREAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
let sdk;
try {
  sdk = require(workerData.sdkPath);
} catch (error) {
  // Said before any request is read, so the caller knows none was sent; with no listener
  // registered, the thread then ends.
  parentPort.postMessage({ failed: String(error?.message ?? error) });
}
// The checksums a read may ask for (\`@node-rs/crc32\`, the caller's copy): a thread that cannot
// load them answers without, and the caller takes the sums itself.
let sums = null;
try { sums = require(workerData.checksumsPath); } catch {}
const clients = new Map();
if (sdk !== undefined) parentPort.on('message', (message) => {
  if (message.open !== undefined) {
    clients.set(message.open, [
      new sdk.S3Client(message.config),
      new sdk.S3Client({ ...message.config, maxAttempts: 1 }),
    ]);
  } else if (message.close !== undefined) {
    for (const client of clients.get(message.close) ?? []) client.destroy();
    clients.delete(message.close);
  } else {
    void answer(message);
  }
});
async function answer({ id, client, command, input, once, maxBodyBytes, returnBody, checksum }) {
  try {
    const pair = clients.get(client);
    if (pair === undefined) throw { name: 'ClientClosed', message: 'the S3 store was closed' };
    const { Body, $metadata, ...output } = await pair[once ? 1 : 0].send(new sdk[command + 'Command'](input));
    if (returnBody) {
      // Answered with success: the store read the whole body, so nothing still sends from it.
      const returnedBody = input.Body.buffer;
      parentPort.postMessage({ id, output, returnedBody }, [returnedBody]);
      return;
    }
    if (Body === undefined || (output.ContentLength ?? 0) > maxBodyBytes) {
      Body?.destroy?.();
      parentPort.postMessage({ id, output });
      return;
    }
    const bytes = await Body.transformToByteArray();
    // Transferred, so never a view of a buffer that something else shares (a Buffer's slice()
    // is such a view: new Uint8Array copies).
    const body = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    const sum = checksum && sums ? sums[checksum.algorithm](body.subarray(checksum.from)) : undefined;
    parentPort.postMessage({ id, output, body, checksum: sum }, [body.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: copyOf(error) });
  }
}
function copyOf(error) {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const status = error.$metadata?.httpStatusCode;
  return {
    name: error.name,
    code: error.code,
    message: error.message,
    $fault: error.$fault,
    $metadata: status === undefined ? undefined : { httpStatusCode: status },
  };
}
`;
