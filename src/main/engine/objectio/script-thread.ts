/**
 * Starts a store thread (`LocalReadThread`, `S3Thread`) from its script: plain CommonJS
 * source, evaluated, so there is nothing to bundle or resolve.
 *
 * The thread gets none of the host's Node options. A worker inherits `process.execArgv` by
 * default, and some of those change how evaluated source is read: under
 * `node --input-type=module` the script is taken for an ES module, `require` is undefined and
 * the thread dies on its first line. V8's flags are the process's, not the thread's, so
 * nothing the engine runs with is lost.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startScriptThread(
  source: string,
  options: Pick<WorkerOptions, 'env' | 'workerData'>,
): Worker {
  return new Worker(source, { ...options, eval: true, execArgv: [] });
}
