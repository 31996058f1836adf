/**
 * Issue #47 item 5: scrub slots are per session. A session that pauses its four scrubs cannot
 * keep another session from scrubbing, and once its caller is gone its paused scrubs end and
 * their slots with them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DamageLedger } from '../../src/main/services/wal/scrub/damage-ledger';
import { MAX_ACTIVE_SCRUBS, ScrubService } from '../../src/main/services/wal/scrub/scrub-service';

let release = (): void => undefined;
let service: ScrubService;
afterEach(async () => {
  release();
  await service.closeAll();
});

function scrubs(): ScrubService {
  const walked = new Promise<void>((resolve) => (release = resolve));
  return new ScrubService({
    ledger: new DamageLedger(),
    locate: () => Promise.reject(new Error('no prefix is ever found')),
    // A fleet walk that lasts until the test ends: each job stays active.
    walkFleet: () => walked,
    onPrefixScrubbed: () => Promise.resolve(),
  });
}

describe('scrub slots', () => {
  it('are counted per session, and a gone caller’s paused scrubs end', () => {
    service = scrubs();
    const socket = new AbortController();
    const hostile = { sessionId: 'browser hostile', gone: socket.signal };
    const started = Array.from({ length: MAX_ACTIVE_SCRUBS }, (_, at) =>
      service.start(`conn-${at}`, null, hostile),
    );
    for (const job of started) service.pause(job.jobId);
    expect(() => service.start('conn-x', null, hostile)).toThrow(
      expect.objectContaining({ code: 'TooManyScrubJobs' }),
    );
    // Another session still has its slots.
    const other = service.start('conn-y', null, { sessionId: 'browser other' });
    expect(other.state).toBe('running');

    socket.abort(); // The hostile socket closed.
    const states = service
      .list('conn-0')
      .concat(...started.slice(1).map((job) => service.list(job.connectionId)))
      .map((view) => view.state);
    expect(states).toEqual(Array(MAX_ACTIVE_SCRUBS).fill('cancelled'));
    expect(service.list('conn-y')[0]?.state).toBe('running');
    // A job paused after its caller left ends at once.
    const late = new AbortController();
    const job = service.start('conn-z', null, { sessionId: 'browser late', gone: late.signal });
    late.abort();
    expect(service.pause(job.jobId).state).toBe('cancelled');
  });
});
