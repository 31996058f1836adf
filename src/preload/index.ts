/**
 * The preload: exposes one named function per API procedure and an event subscription on
 * `window.cairn`, nothing else. `ipcRenderer` itself never reaches the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type PreloadBridge } from '../shared/ipc-channels';
import { PROCEDURE_NAMES } from '../shared/procedure-names';

const procedures = Object.fromEntries(
  PROCEDURE_NAMES.map((name) => [
    name,
    (encodedInput: string) =>
      ipcRenderer.invoke(IPC_CALL_CHANNEL, name, String(encodedInput)) as Promise<string>,
  ]),
);

const bridge: PreloadBridge = {
  procedures,
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, payload: string): void => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld('cairn', bridge);
