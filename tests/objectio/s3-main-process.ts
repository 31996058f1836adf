/**
 * Child process of the S3 thread test: makes one S3 request (to a port nothing listens on)
 * and prints what it failed with and whether this process ever loaded the SDK.
 */
import { S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';

async function main(): Promise<void> {
  const io = new S3ObjectIo({
    bucket: 'b',
    endpoint: 'http://127.0.0.1:1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'a', secretAccessKey: 's' },
  });
  const code = await io.head('k').then(
    () => 'answered',
    (error: unknown) => (error as { code?: string }).code ?? 'no code',
  );
  const sdkLoaded = Object.keys(require.cache).some((path) => path.includes('@aws-sdk'));
  io.destroy();
  process.stdout.write(JSON.stringify({ code, sdkLoaded }));
}

void main();
