/**
 * The Electron entry: one window with the security checklist applied, the renderer served
 * from app://, and the router reachable only through the checked IPC channel. Everything it
 * wires is Electron-free; this file is the only one in main that imports Electron.
 */
import { app, BrowserWindow, ipcMain, protocol, shell } from 'electron';
import { join } from 'node:path';
import { createRouter } from './api/create-router';
import { forwardEvents, registerIpcTransport } from './ipc/ipc-transport';
import { WindowCallers, windowSession } from './ipc/window-sessions';
import { defaultDataDir } from './services/app-paths';
import { appVersion } from './services/app-version';
import { createServices } from './services/services';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  serveAppProtocol,
} from './shell/app-protocol';
import { installProcessGuard } from './process-guard';
import { guardNavigation } from './shell/navigation-guard';
import { secureWebPreferences } from './shell/web-preferences';

const projectRoot = join(__dirname, '..', '..');
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.setPath('userData', defaultDataDir());

async function main(): Promise<void> {
  installProcessGuard();
  await app.whenReady();
  const services = await createServices({
    name: 'Cairn',
    version: appVersion(projectRoot),
    mode: 'desktop',
    dataDir: app.getPath('userData'),
  });
  serveAppProtocol(protocol, join(__dirname, '..', 'renderer'));
  const windows = new WindowCallers();
  registerIpcTransport(ipcMain, createRouter(services), APP_ORIGIN, windows);
  app.on('web-contents-created', (_event, contents) => {
    guardNavigation(contents, APP_ORIGIN, (url) => shell.openExternal(url));
  });
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Cairn',
    icon: join(projectRoot, 'resources', 'icon.png'),
    webPreferences: secureWebPreferences(join(__dirname, '..', 'preload', 'index.js')),
  });
  forwardEvents(services.events, window.webContents);
  const contentsId = window.webContents.id;
  window.once('closed', () => {
    windows.closed(contentsId);
    services.connections.endSession(windowSession(contentsId));
  });
  await window.loadURL(APP_ENTRY_URL);
  app.on('window-all-closed', () => app.quit());
  // Writers opened in the app stop cleanly before exit, so their epochs are sealed.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    void services.wal.closeAll().finally(() => app.quit());
  });
}

main().catch((error: unknown) => {
  console.error('Cairn failed to start:', error);
  app.exit(1);
});
