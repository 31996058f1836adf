import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  forwardEvents,
  isTrustedSender,
  registerIpcTransport,
  type IpcInvokeEvent,
} from '../../src/main/ipc/ipc-transport';
import { APP_ORIGIN } from '../../src/main/shell/app-protocol';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { makeTestApp, type TestApp } from '../support/app-services';

let app: TestApp;
beforeAll(async () => {
  app = await makeTestApp();
});
afterAll(() => app.dispose());

/** A window's contents that keeps what was sent to it. */
function windowContents(id: number): IpcInvokeEvent['sender'] & { sent: string[] } {
  const sent: string[] = [];
  return { id, sent, isDestroyed: () => false, send: (_channel, payload) => sent.push(payload) };
}

const firstWindow = windowContents(1);

const frame = (
  url: string,
  parent: unknown = null,
  sender: IpcInvokeEvent['sender'] = firstWindow,
): IpcInvokeEvent => ({ senderFrame: { url, parent }, sender });

describe('the IPC transport', () => {
  it("trusts only the app's own top frame", () => {
    expect(isTrustedSender(frame(`${APP_ORIGIN}/index.html`), APP_ORIGIN)).toBe(true);
    expect(isTrustedSender(frame(`${APP_ORIGIN}/index.html`, {}), APP_ORIGIN)).toBe(false);
    expect(isTrustedSender(frame('https://evil.example/'), APP_ORIGIN)).toBe(false);
    expect(isTrustedSender(frame('file:///index.html'), APP_ORIGIN)).toBe(false);
    expect(isTrustedSender({ senderFrame: null }, APP_ORIGIN)).toBe(false);
  });

  it('validates calls from the app and refuses others before decoding', async () => {
    let listener: ((event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>) | undefined;
    registerIpcTransport(
      { handle: (_channel, handler) => (listener = handler), removeHandler: () => undefined },
      app.router,
      APP_ORIGIN,
    );
    const call = async (event: IpcInvokeEvent, name: string, input: unknown) =>
      decodeWire((await listener!(event, name, input)) as string) as {
        ok: boolean;
        result?: unknown;
        error?: { code: string };
      };
    expect((await call(frame(`${APP_ORIGIN}/`), 'app.info', encodeWire({}))).ok).toBe(true);
    expect(
      (await call(frame('https://evil.example/'), 'app.info', encodeWire({}))).error?.code,
    ).toBe('UntrustedSender');
    expect(
      (await call(frame(`${APP_ORIGIN}/`), 'connections.remove', encodeWire({ id: 7 }))).error
        ?.code,
    ).toBe('InvalidInput');
    // A frame disposed mid-call throws when read (Electron does): still a typed reply.
    const disposed = {
      sender: firstWindow,
      get senderFrame(): never {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect((await call(disposed, 'app.info', encodeWire({}))).error?.code).toBe('UntrustedSender');
    expect((await call(frame(`${APP_ORIGIN}/`), 'app.info', encodeWire({}))).ok).toBe(true);
  });

  it('keeps operator mode per window and names the window in the audit log', async () => {
    let listener: ((event: IpcInvokeEvent, ...args: unknown[]) => Promise<unknown>) | undefined;
    registerIpcTransport(
      { handle: (_channel, handler) => (listener = handler), removeHandler: () => undefined },
      app.router,
      APP_ORIGIN,
    );
    const secondWindow = windowContents(2);
    const call = async (sender: IpcInvokeEvent['sender'], name: string, input: unknown) =>
      decodeWire(
        (await listener!(frame(`${APP_ORIGIN}/`, null, sender), name, encodeWire(input))) as string,
      ) as { ok: boolean; result?: unknown };
    const operatorIn = async (sender: IpcInvokeEvent['sender']) =>
      ((await call(sender, 'connections.list', {})).result as Array<{ operator: boolean }>)[0]
        ?.operator;
    await call(firstWindow, 'connections.setOperator', { id: 'embedded', operator: true });
    expect([await operatorIn(firstWindow), await operatorIn(secondWindow)]).toEqual([true, false]);
    expect((await app.services.audit.recent(1))[0]).toMatchObject({
      action: 'connections.setOperator',
      session: 'window 1',
    });
    await call(firstWindow, 'connections.setOperator', { id: 'embedded', operator: false });
  });

  it('forwards events until the window is gone', async () => {
    const sent: string[] = [];
    let destroyed = false;
    forwardEvents(app.services.events, {
      isDestroyed: () => destroyed,
      send: (_channel, payload) => sent.push(payload),
    });
    await app.services.connections.setOperator('embedded', true);
    destroyed = true;
    await app.services.connections.setOperator('embedded', false);
    expect(sent).toHaveLength(1);
    expect(decodeWire(sent[0]!)).toMatchObject({ type: 'connections.changed' });
  });
});
