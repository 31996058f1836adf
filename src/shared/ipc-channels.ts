/** The two fixed IPC channels; the preload never exposes them, only named functions. */
export const IPC_CALL_CHANNEL = 'cairn:call';
export const IPC_EVENT_CHANNEL = 'cairn:event';

/** What the preload puts on `window.cairn`. Inputs and replies are wire-encoded strings. */
export interface PreloadBridge {
  readonly procedures: Readonly<Record<string, (encodedInput: string) => Promise<string>>>;
  onEvent(listener: (encodedEvent: string) => void): () => void;
}
