/** Random junk sent to every procedure: always a typed refusal or a valid answer, never a crash. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procedureNames } from '../../src/shared/contract';
import { dispatchCall } from '../../src/main/api/dispatch';
import { PROCESS_CALLER } from '../../src/main/services/caller';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { makeTestApp, type TestApp } from '../support/app-services';

let app: TestApp;
beforeAll(async () => {
  app = await makeTestApp();
});
afterAll(() => app.dispose());

const KNOWN_CODES = new Set([
  'InvalidInput',
  'UnknownProcedure',
  'MalformedCall',
  'ConnectionNotFound',
  'BuiltInConnection',
  'NotFound',
  'ReadOnly',
  'Backend',
]);

/** A few generated values (e.g. objects keyed `__proto__`) are not even sendable: skip those. */
function encodableOrNull(value: unknown): string | null {
  try {
    return encodeWire(value);
  } catch {
    return null;
  }
}

describe('fuzzing every procedure', () => {
  it('answers junk with typed errors and keeps the saved state intact', async () => {
    const before = encodeWire(await app.router.call('connections.list', {}));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...procedureNames, 'no.such', ''),
        fc.anything({ withBigInt: true, withTypedArray: true }),
        async (name, junk) => {
          const encoded = encodableOrNull(junk);
          if (encoded === null) return;
          const reply = decodeWire(
            await dispatchCall(app.router, 1, name, encoded, PROCESS_CALLER),
          ) as {
            ok: boolean;
            error?: { code: string };
          };
          if (!reply.ok) expect(KNOWN_CODES).toContain(reply.error?.code);
        },
      ),
      { numRuns: 300 },
    );
    // Junk may have been a valid add (fast-check can generate one); it may never have removed anything.
    const after = (await app.router.call('connections.list', {})) as Array<{ id: string }>;
    for (const kept of decodeWire(before) as Array<{ id: string }>)
      expect(after.map((c) => c.id)).toContain(kept.id);
  });

  it('refuses undecodable and oversized calls before touching the router', async () => {
    const bad = decodeWire(
      await dispatchCall(app.router, 7, 'connections.list', '{not json', PROCESS_CALLER),
    ) as {
      id: number;
      error: { code: string };
    };
    expect(bad).toMatchObject({ id: 7, error: { code: 'MalformedCall' } });
    const huge = decodeWire(
      await dispatchCall(
        app.router,
        8,
        'connections.add',
        'x'.repeat(5 * 1024 * 1024),
        PROCESS_CALLER,
      ),
    ) as { error: { code: string } };
    expect(huge.error.code).toBe('PayloadTooLarge');
    const notText = decodeWire(
      await dispatchCall(app.router, 9, 'app.info', 42, PROCESS_CALLER),
    ) as {
      error: { code: string };
    };
    expect(notText.error.code).toBe('MalformedCall');
  });
});
