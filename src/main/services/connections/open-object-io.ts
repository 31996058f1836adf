/** Turns a saved profile into the ObjectIo that reaches its storage. */
import { mkdir } from 'node:fs/promises';
import { LocalObjectIo } from '../../engine/objectio/local-object-io';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { S3ObjectIo } from '../../engine/objectio/s3-object-io';
import type { SavedProfile } from './connection-store';

export async function openObjectIo(profile: SavedProfile): Promise<ObjectIo> {
  if (profile.kind === 'local') {
    await mkdir(profile.path, { recursive: true });
    return new LocalObjectIo(profile.path);
  }
  return new S3ObjectIo({
    bucket: profile.bucket,
    region: profile.region,
    endpoint: profile.endpoint,
    forcePathStyle: profile.forcePathStyle,
    profile: profile.profile,
  });
}

/** The key prefix under which a profile's Cairn data lives ('' for the whole bucket / dir). */
export function rootOf(profile: SavedProfile): string {
  return profile.kind === 's3' ? profile.root : '';
}
