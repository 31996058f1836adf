/**
 * How Cairn drives Chromium, for the e2e suite and the console benchmark alike: Debian's
 * Chromium where installed (these machines cannot download Playwright's own), CAIRN_CHROMIUM
 * to point elsewhere, else Playwright's bundled browser; headless with the background
 * networking this closed network refuses turned off.
 */
import { existsSync } from 'node:fs';

export const chromiumLaunchOptions = {
  executablePath:
    process.env.CAIRN_CHROMIUM ??
    (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined),
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
