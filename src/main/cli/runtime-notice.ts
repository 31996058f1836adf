/**
 * What the CLI says about the Node it runs on: nothing on a supported one, one line on stderr
 * on an older one (commands may fail there: the S3 SDK and commander need Node 20). It owns
 * the silencing of the AWS SDK's own notice - eight lines about releases after January 2027
 * needing Node 22, which the pinned SDK (see package.json) will never be - so a script reading
 * stderr sees the command's own words only. Never refuses to run.
 */

/**
 * The oldest Node the CLI and browser mode run on. Developing needs more (package.json's
 * `engines`: Electron 45 and the test tools want 22.13+); the README states both.
 */
export const OLDEST_SUPPORTED_NODE = '20.19.0';

/** The SDK reads this before each client it makes warns; set before any client is made. */
export function silenceSdkVersionNotice(env: NodeJS.ProcessEnv = process.env): void {
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

function isOlder(version: string, than: string): boolean {
  const [a, b] = [parts(version), parts(than)];
  for (let at = 0; at < 3; at++) {
    const difference = (a[at] ?? 0) - (b[at] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

/** The one line to print about `nodeVersion`, or null when there is nothing to say. */
export function runtimeNotice(nodeVersion: string = process.versions.node): string | null {
  if (!isOlder(nodeVersion, OLDEST_SUPPORTED_NODE)) return null;
  return `cairn: Node ${nodeVersion.replace(/^v/, '')} is older than ${OLDEST_SUPPORTED_NODE}, the oldest Cairn supports; commands may fail`;
}
