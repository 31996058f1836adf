/**
 * Electron's security checklist, asserted on what the shell really configures. Electron is
 * mocked: these tests load src/main/index.ts with fake app / BrowserWindow / protocol objects.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy } from '../../src/shared/csp';
import { guardNavigation } from '../../src/main/shell/navigation-guard';
import { isSafeExternalUrl, safeOpenExternal } from '../../src/main/shell/open-external';
import { APP_ORIGIN } from '../../src/main/shell/app-protocol';

const created: { options?: { webPreferences?: Record<string, unknown> }; loaded?: string } = {};
const handlers = new Map<string, (...args: unknown[]) => unknown>();
const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = { id: 1, isDestroyed: () => false, send: vi.fn() };
    once = vi.fn();
    constructor(options: { webPreferences?: Record<string, unknown> }) {
      created.options = options;
    }
    loadURL(url: string) {
      created.loaded = url;
      return Promise.resolve();
    }
  }
  return {
    app: {
      whenReady: () => Promise.resolve(),
      setPath: vi.fn(),
      getPath: () => '/tmp/cairn-electron-mock',
      on: vi.fn(),
      exit: vi.fn(),
      quit: vi.fn(),
    },
    BrowserWindow,
    ipcMain: {
      handle: (channel: string, listener: (...args: unknown[]) => unknown) =>
        handlers.set(channel, listener),
      removeHandler: vi.fn(),
    },
    protocol: {
      registerSchemesAsPrivileged: vi.fn(),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        protocolHandlers.set(scheme, handler),
    },
    shell: { openExternal: vi.fn() },
  };
});

beforeAll(async () => {
  await import('../../src/main/index');
  await vi.waitFor(() => expect(created.loaded).toBeDefined());
});

describe('the desktop window', () => {
  it('isolates the page: context isolation and sandbox on, no Node, no webviews', () => {
    expect(created.options?.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String(created.options?.webPreferences?.preload)).toMatch(/preload[\\/]index\.js$/);
  });

  it('loads the renderer from the app:// origin, never a remote URL or file://', () => {
    expect(created.loaded).toBe(`${APP_ORIGIN}/index.html`);
  });

  it('serves app:// with the strict CSP and nothing outside the renderer directory', async () => {
    const serve = protocolHandlers.get('app')!;
    const page = await serve(new Request(`${APP_ORIGIN}/index.html`));
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const escape = await serve(new Request(`${APP_ORIGIN}/..%2f..%2fpackage.json`));
    expect(await escape.text()).not.toContain('"devDependencies"');
    const foreign = await serve(new Request('app://evil/index.html'));
    expect(foreign.status).toBe(404);
  });

  it('registers the IPC call handler that refuses foreign senders', async () => {
    const handler = handlers.get('cairn:call')!;
    const foreign = (await handler(
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      'app.info',
      '',
    )) as string;
    expect(foreign).toContain('UntrustedSender');
    const own = (await handler(
      {
        senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null },
        sender: { id: 1, isDestroyed: () => false, send: () => undefined },
      },
      'app.info',
      '',
    )) as string;
    expect(own).toContain('"ok":true');
  });
});

describe('the CSP', () => {
  it('allows scripts only from the app, no inline script, no eval, no framing', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('navigation and new windows', () => {
  function fakeContents() {
    type Listener = (event: { preventDefault(): void }, url: string) => void;
    const listeners = new Map<string, Listener>();
    let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
    return {
      contents: {
        on: (event: string, listener: Listener) => void listeners.set(event, listener),
        setWindowOpenHandler: (handler: (details: { url: string }) => { action: 'deny' }) =>
          void (openHandler = handler),
      },
      navigate(event: string, url: string) {
        let prevented = false;
        listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url);
        return prevented;
      },
      open: (url: string) => openHandler!({ url }),
    };
  }

  it('blocks navigation away from the app and never opens a window', async () => {
    const fake = fakeContents();
    const opened: string[] = [];
    guardNavigation(fake.contents, APP_ORIGIN, async (url) => {
      opened.push(url);
    });
    expect(fake.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fake.navigate('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(fake.navigate('will-navigate', `${APP_ORIGIN}/index.html#regions`)).toBe(false);
    expect(fake.navigate('will-attach-webview', 'x')).toBe(true);
    expect(fake.open('https://docs.example/help')).toEqual({ action: 'deny' });
    expect(fake.open('file:///bin/sh')).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(opened).toEqual(['https://docs.example/help']);
  });

  it('opens only plain http(s) URLs externally', async () => {
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'smb://host/share',
      'https://user:pw@host/',
      'not a url',
    ]) {
      expect(isSafeExternalUrl(url)).toBe(false);
    }
    const open = vi.fn(async () => undefined);
    expect(await safeOpenExternal('vscode://x', open)).toBe(false);
    expect(await safeOpenExternal('https://cairn.example/docs', open)).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
  });
});
