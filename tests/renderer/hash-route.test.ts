import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOME,
  formatHashRoute,
  parseHashRoute,
  type Route,
} from '../../src/renderer/src/state/hash-route';
import { VIEWS } from '../../src/renderer/src/state/views';

describe('the hash route', () => {
  it('names the view and its selection', () => {
    const route: Route = {
      ...HOME,
      view: 'regions',
      connectionId: 'lab-s3',
      walPrefix: 'wal/nodes/0/generations/1',
      region: '1024:7',
    };
    const hash = formatHashRoute(route);
    expect(hash).toBe(
      '#/regions?connection=lab-s3&prefix=wal%2Fnodes%2F0%2Fgenerations%2F1&region=1024%3A7',
    );
    expect(parseHashRoute(hash)).toEqual(route);
  });

  it('leaves the defaults out', () => {
    expect(formatHashRoute(HOME)).toBe('#/connections');
    expect(parseHashRoute('')).toEqual(HOME);
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

  it('reads back every route it writes', () => {
    const text = fc.option(fc.string({ minLength: 1 }), { nil: null });
    fc.assert(
      fc.property(
        fc.record({
          view: fc.constantFrom(...VIEWS.map((view) => view.id)),
          connectionId: fc.string({ minLength: 1 }),
          walPrefix: text,
          folder: fc.string(),
          objectKey: text,
          region: text,
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
          expect(parseHashRoute(formatHashRoute(route))).toEqual(route);
        },
      ),
    );
  });
});
