/**
 * A stand-in S3 for tests of the client's behaviour (retries, timeouts, the S3 thread): a
 * loopback HTTP server that answers every request with a script and records each request's
 * method and body. Never a stand-in for S3's semantics: those run on the real S3 lane.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';
import type { S3Thread } from '../../src/main/engine/objectio/s3-thread';

export type Script = (request: IncomingMessage, response: ServerResponse) => void;

export interface ScriptedS3 {
  /** Each request's method, in arrival order. */
  readonly requests: string[];
  /** Each request's body, in arrival order. */
  readonly bodies: Buffer[];
  /** `http://127.0.0.1:port`. */
  readonly endpoint: string;
  /** Answers requests from now on with `script`. */
  answerWith(script: Script): void;
  io(options?: { requestTimeoutMs?: number; thread?: S3Thread }): S3ObjectIo;
  /** Stops listening: a later connection is refused. */
  close(): Promise<void>;
}

const servers = new Set<Server>();

/** Closes every scripted server still listening (call in afterEach). */
export async function closeScriptedServers(): Promise<void> {
  const open = [...servers];
  servers.clear();
  await Promise.all(open.map((server) => new Promise((resolve) => server.close(resolve))));
}

export async function scriptedS3(script: Script): Promise<ScriptedS3> {
  const requests: string[] = [];
  const bodies: Buffer[] = [];
  let answer = script;
  const server = createServer((request, response) => {
    requests.push(request.method ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      answer(request, response);
    });
  });
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    requests,
    bodies,
    endpoint,
    answerWith: (next) => {
      answer = next;
    },
    io: ({ requestTimeoutMs, thread } = {}) =>
      new S3ObjectIo(
        {
          bucket: 'b',
          endpoint,
          forcePathStyle: true,
          requestTimeoutMs,
          credentials: { accessKeyId: 'a', secretAccessKey: 's' },
        },
        thread,
      ),
    close: async () => {
      servers.delete(server);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const errorBody = (code: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>scripted</Message></Error>`;

/** Answers with an S3 error document. */
export const failWith =
  (status: number, code: string): Script =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/xml' }).end(errorBody(code));
  };

/** Answers 200 with an ETag and `body`. */
export const succeedWith =
  (body = ''): Script =>
  (_request, response) => {
    response
      .writeHead(200, { etag: '"e1"', 'content-length': String(Buffer.byteLength(body)) })
      .end(body);
  };
