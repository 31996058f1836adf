import { beforeEach, describe, expect, it } from 'vitest';
import { HOME, parseHashRoute } from '../../src/renderer/src/state/hash-route';
import { NO_REPLAY } from '../../src/renderer/src/state/replay-place';
import { routeOf, useUiStore } from '../../src/renderer/src/state/ui-store';

const A = 'wal/nodes/0/generations/0';
const B = 'datanodes/1/epochs/8';
const store = () => useUiStore.getState();

beforeEach(() => {
  useUiStore.setState({
    ...HOME,
    connectionId: 'embedded',
    connectionResolved: true,
    historyStep: 'push',
  });
});

describe('the place kept in the ui-store', () => {
  it('opens the bucket browser at the objects folder of a prefix picked in another view', () => {
    store().showView('browser', { folder: 'logs/', objectKey: 'logs/a.txt' });
    store().showView('batches');
    store().selectWalPrefix(B);
    expect(store()).toMatchObject({ folder: `${B}/objects/`, objectKey: null, anchor: null });
  });

  it('stays where it was when a view only filled in the first prefix, until the user picks it', () => {
    store().settle({ walPrefix: A });
    expect(store()).toMatchObject({ walPrefix: A, folder: '' });
    store().selectWalPrefix(A);
    expect(store().folder).toBe(`${A}/objects/`);
    store().select({ folder: `${A}/manifest/` });
    store().selectWalPrefix(A);
    expect(store().folder).toBe(`${A}/manifest/`);
  });

  it('drops the start, run and selected entry of the replay when its region or prefix changes', () => {
    store().showView('replay', { walPrefix: A, region: '1:1' });
    store().setReplay({ from: '2:1', run: true, entry: '2:3', text: 'err' }, 'push');
    store().select({ region: '1:2' });
    expect(store().replay).toEqual({ ...NO_REPLAY, text: 'err' });
    store().setReplay({ from: '2:1', run: true });
    store().selectWalPrefix(B);
    expect(store()).toMatchObject({ region: null, replay: { from: null, run: false } });
  });

  it("opens a link's place without losing another view's selection on the same connection", () => {
    store().showView('browser', { folder: 'logs/' });
    store().goTo(parseHashRoute(`#/replay?prefix=${encodeURIComponent(A)}&region=1%3A2&run=1`));
    expect(store()).toMatchObject({
      view: 'replay',
      walPrefix: A,
      region: '1:2',
      replay: { run: true },
      connectionResolved: true,
    });
    // The prefix came from a link: the browser follows it.
    expect(store().folder).toBe(`${A}/objects/`);
    expect(store().historyStep).toBe('replace');
  });

  it("holds the views back while a link's connection is looked for, then names it", () => {
    store().showView('browser', { folder: 'logs/' });
    store().goTo(parseHashRoute('#/batches?bucket=lab&root=team&prefix=p'));
    expect(store()).toMatchObject({
      connectionResolved: false,
      connectionId: 'embedded',
      connection: { kind: 's3', bucket: 'lab' },
      walPrefix: 'p',
      folder: 'p/objects/',
    });
    store().resolveConnection('c2', { kind: 's3', bucket: 'lab', root: 'team', endpoint: null });
    expect(store()).toMatchObject({ connectionResolved: true, connectionId: 'c2', walPrefix: 'p' });
    // An old link by id, and the embedded store, which needs no lookup.
    store().goTo(parseHashRoute('#/overview?connection=c9'));
    expect(store().connectionResolved).toBe(false);
    store().goTo(parseHashRoute('#/overview'));
    expect(store()).toMatchObject({ connectionResolved: true, connectionId: 'embedded' });
  });

  it('a connection picked here is named by id until the saved list says how links name it', () => {
    store().showView('batches', { walPrefix: A });
    store().selectConnection('c1');
    expect(routeOf(store())).toMatchObject({
      connection: { kind: 'saved', id: 'c1' },
      walPrefix: null,
    });
    store().nameConnection({ kind: 'local', path: '/srv/wal' });
    expect(store()).toMatchObject({
      connection: { kind: 'local', path: '/srv/wal' },
      connectionId: 'c1',
      historyStep: 'replace',
    });
  });
});
