/**
 * The storage link in the console: Test connection reports the link's latency p50 / p99 and
 * the rate a burst reached; the title bar shows the connection's live p50 and requests in
 * flight once a view has read through it. Runs on the local store and, with the lane set, S3.
 */
import { expect, test } from './fixtures';

test('Test connection reports the link, and the title bar shows it live', async ({
  page,
  store,
}) => {
  await store.open(page);
  const row = page
    .getByRole('table', { name: 'Saved connections' })
    .getByRole('row')
    .filter({ hasText: store.name });
  await row.getByRole('button', { name: `Test ${store.name}` }).click();
  await expect(row.getByLabel('Link measured')).toHaveText(
    /64 requests: p50 [\d.,]+ ms, p99 [\d.,]+ ms, [\d,]+ requests\/s/,
  );
  const link = page.getByRole('status', { name: 'Storage link' });
  // The network's round trip and the requests' latency (queueing included), each labelled.
  await expect(link).toHaveText(/^round trip [\d.,]+ ms · requests p50 [\d.,]+ ms · \d+ in flight/);
});
