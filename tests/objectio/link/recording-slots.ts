/** Test slots: granted at once, each request's need recorded and its release counted. */
import type { IoSlots, SlotNeed } from '../../../src/main/engine/objectio/link';

export function recordingSlots(): IoSlots & { needs: SlotNeed[]; released: number } {
  const recorder = {
    width: 4,
    needs: [] as SlotNeed[],
    released: 0,
    acquire: async (need: SlotNeed) => {
      recorder.needs.push(need);
      return { release: () => void (recorder.released += 1) };
    },
  };
  return recorder;
}
