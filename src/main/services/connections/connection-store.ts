/**
 * Saved connection profiles, kept as one JSON file in the data directory. It holds no
 * secret: S3 credentials come from the SDK's chain or a named profile, never from here.
 * The embedded store is always present and comes first. The file is read on every lookup, not
 * cached: `cairn connections add-s3` may change it while the app or `cairn serve` runs.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ConnectionSpec } from '../../../shared/contract/connections';
import { embeddedStoreDir } from '../app-paths';
import { readJsonFile, writeJsonFileAtomic } from '../json-file';

export const EMBEDDED_CONNECTION_ID = 'embedded';

const SavedProfile = z.intersection(ConnectionSpec, z.object({ id: z.string() }));
export type SavedProfile = z.infer<typeof SavedProfile>;
const ProfilesFile = z.object({ version: z.literal(1), profiles: z.array(SavedProfile) });

export class ConnectionStore {
  private readonly file: string;

  constructor(private readonly dataDir: string) {
    this.file = join(dataDir, 'connections.json');
  }

  embedded(): SavedProfile {
    return {
      id: EMBEDDED_CONNECTION_ID,
      kind: 'local',
      name: 'Embedded store',
      path: embeddedStoreDir(this.dataDir),
    };
  }

  async list(): Promise<SavedProfile[]> {
    return [this.embedded(), ...(await this.saved())];
  }

  async add(spec: ConnectionSpec): Promise<SavedProfile> {
    const profile: SavedProfile = { ...spec, id: randomUUID() };
    await this.write([...(await this.saved()), profile]);
    return profile;
  }

  /** False when no saved profile has this id. */
  async remove(id: string): Promise<boolean> {
    const saved = await this.saved();
    const kept = saved.filter((profile) => profile.id !== id);
    if (kept.length === saved.length) return false;
    await this.write(kept);
    return true;
  }

  private async saved(): Promise<SavedProfile[]> {
    const raw = await readJsonFile(this.file);
    if (raw === undefined) return [];
    return ProfilesFile.parse(raw).profiles;
  }

  private async write(profiles: SavedProfile[]): Promise<void> {
    await writeJsonFileAtomic(this.file, { version: 1, profiles });
  }
}
