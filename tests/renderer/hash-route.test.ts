import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConnectionLink } from '../../src/renderer/src/state/connection-link';
import {
  HOME,
  formatHashRoute,
  linkedRoute,
  parseHashRoute,
  type Route,
} from '../../src/renderer/src/state/hash-route';
import { KEEP_CHOICES, NO_REPLAY } from '../../src/renderer/src/state/replay-place';
import { NO_SEARCH } from '../../src/renderer/src/state/search-place';
import { VIEWS } from '../../src/renderer/src/state/views';

const PREFIX = 'wal/nodes/0/generations/1';

describe('the hash route', () => {
  it('names the view, the connection as another install finds it, and the selection', () => {
    const route: Route = {
      ...HOME,
      view: 'regions',
      connection: { kind: 's3', bucket: 'lab', root: 'team', endpoint: 'http://10.0.0.5:7480' },
      walPrefix: PREFIX,
      region: '1024:7',
    };
    const hash = formatHashRoute(route);
    expect(hash).toBe(
      '#/regions?bucket=lab&root=team&endpoint=http%3A%2F%2F10.0.0.5%3A7480&prefix=wal%2Fnodes%2F0%2Fgenerations%2F1&region=1024%3A7',
    );
    expect(parseHashRoute(hash)).toEqual(route);
  });

  it('leaves the defaults out (the embedded store is named by leaving it out)', () => {
    expect(formatHashRoute(HOME)).toBe('#/connections');
    expect(parseHashRoute('')).toEqual(HOME);
    expect(parseHashRoute('#/overview?connection=embedded').connection).toEqual({
      kind: 'embedded',
    });
  });

  it('still reads an old link naming its connection by id', () => {
    expect(parseHashRoute('#/batches?connection=6f1c-uuid&prefix=p')).toMatchObject({
      view: 'batches',
      connection: { kind: 'saved', id: '6f1c-uuid' },
      walPrefix: 'p',
    });
    expect(formatHashRoute({ ...HOME, connection: { kind: 'saved', id: 'x' } })).toBe(
      '#/connections?connection=x',
    );
  });

  it("carries only the view's own parameters: no folder or object on a WAL view", () => {
    const everywhere: Route = {
      ...HOME,
      view: 'batches',
      walPrefix: PREFIX,
      folder: 'other/objects/',
      objectKey: 'other/objects/00000000000000000001.wal',
      anchor: 'other/objects/00000000000000000001.wal',
      region: '1:1',
      replay: { ...NO_REPLAY, run: true, text: 'x' },
      namespace: 'inventory',
    };
    expect(formatHashRoute(everywhere)).toBe(`#/batches?prefix=${encodeURIComponent(PREFIX)}`);
    expect(formatHashRoute({ ...everywhere, view: 'browser' })).toBe(
      '#/browser?folder=other%2Fobjects%2F&object=other%2Fobjects%2F00000000000000000001.wal&at=other%2Fobjects%2F00000000000000000001.wal',
    );
    // A link that carries another view's parameters anyway: they are not read.
    expect(parseHashRoute('#/regions?prefix=p&folder=f%2F&object=k').folder).toBe('');
  });

  it("carries the replay's start, run, pace, kept entries, filters and selected entry", () => {
    const entries = parseHashRoute(
      '#/replay?prefix=p&region=1%3A2&from=3%3A1&pace=10&keep=500&run=1&text=err&path=%24.a+%3D%3D+1&order=oldest&entry=3%3A4',
    );
    expect(entries.replay).toEqual({
      ...NO_REPLAY,
      from: '3:1',
      pace: 10,
      keep: 500,
      run: true,
      text: 'err',
      path: '$.a == 1',
      newestFirst: false,
      entry: '3:4',
    });
    expect(entries.region).toBe('1:2');
    const rows = parseHashRoute(
      '#/replay?region=1024%3A0&mode=rows&col.host=%3Dweb-1&since=2026-01-01T00%3A03%3A00Z&run=1&text=ignored',
    );
    expect(rows.replay).toEqual({
      ...NO_REPLAY,
      mode: 'rows',
      run: true,
      columns: { host: '=web-1' },
      since: '2026-01-01T00:03:00Z',
    });
  });

  it('carries the whole search: every condition, scope, limit, order and run', () => {
    const hash =
      '#/search?prefix=p&where=host%3Dweb-6&where=cpu%3E5&since=2026-01-01&ids=3%3A1..&regions=1%3A1%2C1%3A2&limit=50&order=newest&run=1';
    const route = parseHashRoute(hash);
    expect(route.search).toEqual({
      ...NO_SEARCH,
      where: ['host=web-6', 'cpu>5'],
      since: '2026-01-01',
      regions: '1:1,1:2',
      ids: '3:1..',
      limit: 50,
      order: 'newest',
      run: true,
    });
    expect(formatHashRoute(route)).toBe(hash);
    expect(parseHashRoute('#/replay?where=x').search).toEqual(NO_SEARCH);
  });

  it('leaves out the filters of the replay mode not shown, and nonsense numbers', () => {
    const shown = formatHashRoute({
      ...HOME,
      view: 'replay',
      replay: { ...NO_REPLAY, mode: 'rows', text: 'hidden', columns: { host: 'web' } },
    });
    expect(shown).toBe('#/replay?mode=rows&col.host=web');
    expect(parseHashRoute('#/replay?keep=7&pace=-3&run=yes').replay).toEqual(NO_REPLAY);
  });

  it('falls back on unknown views and bad partitions', () => {
    expect(parseHashRoute('#/nowhere?partition=x&topic-id=t')).toEqual(HOME);
    expect(parseHashRoute('#/segments?topic-id=t&partition=-1').partition).toBeNull();
    expect(parseHashRoute('#/segments?topic-id=t&partition=3&topic=orders').partition).toEqual({
      topicId: 't',
      partition: 3,
      topic: 'orders',
    });
    expect(parseHashRoute('#/segments?topic-id=t').partition).toBeNull();
  });

  it('never carries a token, even when one is in the selection text', () => {
    const hash = formatHashRoute({ ...HOME, view: 'browser', folder: 'a/?token=x&b' });
    expect(new URLSearchParams(hash.split('?')[1]).get('token')).toBeNull();
    expect(parseHashRoute(hash).folder).toBe('a/?token=x&b');
  });

  it('reads back every route it writes, as its link carries it', () => {
    const text = fc.option(fc.string({ minLength: 1 }), { nil: null });
    const connection: fc.Arbitrary<ConnectionLink> = fc.oneof(
      fc.constant({ kind: 'embedded' as const }),
      fc.record({
        kind: fc.constant('saved' as const),
        id: fc.string({ minLength: 1 }).filter((id) => id !== 'embedded'),
      }),
      fc.record({ kind: fc.constant('local' as const), path: fc.string({ minLength: 1 }) }),
      fc.record({
        kind: fc.constant('s3' as const),
        bucket: fc.stringMatching(/^[a-z0-9][a-z0-9.-]{1,20}[a-z0-9]$/),
        root: fc.stringMatching(/^([a-z0-9]+(\/[a-z0-9]+)*)?$/),
        endpoint: fc.option(fc.constantFrom('http://127.0.0.1:7480', 'https://s3.example.com'), {
          nil: null,
        }),
      }),
    );
    const replay = fc.record({
      from: text,
      run: fc.boolean(),
      pace: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
      keep: fc.constantFrom(...KEEP_CHOICES),
      mode: fc.constantFrom('entries' as const, 'rows' as const),
      text: fc.string(),
      path: fc.string(),
      newestFirst: fc.boolean(),
      columns: fc.dictionary(
        fc.string({ minLength: 1 }).filter((key) => key !== '__proto__'),
        fc.string(),
      ),
      since: fc.string(),
      until: fc.string(),
      entry: text,
    });
    const search = fc.record({
      where: fc.array(fc.string({ minLength: 1 })),
      since: fc.string(),
      until: fc.string(),
      regions: fc.string({ minLength: 1 }),
      ids: fc.string(),
      text: fc.string(),
      limit: fc.integer({ min: 1, max: 100_000_000 }),
      order: fc.constantFrom('ids' as const, 'newest' as const),
      run: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.record({
          view: fc.constantFrom(...VIEWS.map((view) => view.id)),
          connection,
          walPrefix: text,
          folder: fc.string(),
          objectKey: text,
          anchor: text,
          inspected: text,
          region: text,
          replay,
          search,
          partition: fc.option(
            fc.record(
              {
                topicId: fc.string({ minLength: 1 }),
                partition: fc.nat(),
                topic: fc.string({ minLength: 1 }),
              },
              { requiredKeys: ['topicId', 'partition'] },
            ),
            { nil: null },
          ),
          namespace: text,
        }),
        (route) => {
          const linked = linkedRoute(route);
          expect(parseHashRoute(formatHashRoute(route))).toEqual(linked);
          expect(formatHashRoute(linked)).toBe(formatHashRoute(route));
        },
      ),
    );
  });
});
