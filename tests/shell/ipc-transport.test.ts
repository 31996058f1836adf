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

const frame = (url: string, parent: unknown = null): IpcInvokeEvent => ({
  senderFrame: { url, parent },
});

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
      get senderFrame(): never {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect((await call(disposed, 'app.info', encodeWire({}))).error?.code).toBe('UntrustedSender');
    expect((await call(frame(`${APP_ORIGIN}/`), 'app.info', encodeWire({}))).ok).toBe(true);
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
