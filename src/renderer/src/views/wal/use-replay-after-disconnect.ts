/**
 * A replay whose console lost its link to the server: the server cancels a job whose socket
 * closed (its chunks had nowhere to go), so once the link is back the job's progress is read
 * again - until it no longer runs - and shown with its reason, rather than "running" for good.
 */
import { useEffect, type RefObject } from 'react';
import { ApiError } from '../../../../shared/api-error';
import type { ReplayProgress } from '../../../../shared/contract/wal';
import { api } from '../../api/client';

const RETRY_MS = 500;
const ATTEMPTS = 20;

export function isLiveReplay(progress: ReplayProgress | null): boolean {
  return progress?.state === 'running' || progress?.state === 'paused';
}

export function useReplayAfterDisconnect(
  jobId: RefObject<string | null>,
  onProgress: (progress: ReplayProgress) => void,
  onLost: (error: ApiError) => void,
): void {
  useEffect(
    () =>
      api.onDisconnect(() => {
        const id = jobId.current;
        if (id === null) return;
        // A replay started meanwhile is another job: this one's answers no longer apply.
        const current = (): boolean => jobId.current === id;
        void readUntilSettled(
          id,
          (progress) => {
            if (current()) onProgress(progress);
          },
          (error) => {
            if (current()) onLost(error);
          },
        );
      }),
    [jobId, onProgress, onLost],
  );
}

async function readUntilSettled(
  jobId: string,
  onProgress: (progress: ReplayProgress) => void,
  onLost: (error: ApiError) => void,
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    try {
      const progress = await api.call('wal.replay.progress', { jobId });
      onProgress(progress);
      if (!isLiveReplay(progress)) return;
    } catch (error) {
      // Not reachable yet: try again. A server that no longer knows the job lost it.
      if (error instanceof ApiError && error.code === 'ReplayJobNotFound') return onLost(error);
    }
  }
}
