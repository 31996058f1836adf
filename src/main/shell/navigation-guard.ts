/**
 * Keeps the window on the app: navigation away is blocked, new windows are never created
 * (http(s) links go to the system browser through the safe helper), webviews never attach.
 */
import { isAppUrl } from './app-origin';
import { safeOpenExternal, type OpenExternal } from './open-external';

export interface NavigationEvent {
  preventDefault(): void;
}

export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: NavigationEvent, url: string) => void,
  ): void;
  on(event: 'will-attach-webview', listener: (event: NavigationEvent) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export function guardNavigation(
  contents: GuardedContents,
  appOrigin: string,
  openExternal: OpenExternal,
): void {
  const stayOnApp = (event: NavigationEvent, url: string): void => {
    if (!isAppUrl(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', stayOnApp);
  contents.on('will-redirect', stayOnApp);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void safeOpenExternal(url, openExternal);
    return { action: 'deny' };
  });
}
