/** The shards the registry could not read, each with its key and reason; the others list as usual. */
import { shardLabel, type ShardInfo } from '../../../../shared/contract/namespaces';

export function DamagedShards({ shards }: { shards: readonly ShardInfo[] }) {
  const damaged = shards.filter((info) => info.damage !== null);
  if (damaged.length === 0) return null;
  return (
    <section role="alert" aria-label="Damaged shards" className="error-panel">
      <p>
        {damaged.length === 1 ? 'One shard' : `${damaged.length} shards`} could not be read; the
        records of every other shard are listed below.
      </p>
      <ul>
        {damaged.map((info) => (
          <li key={info.shard}>
            Shard {shardLabel(info.shard)} at <span className="mono">{info.damage?.key}</span>:{' '}
            {info.damage?.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}
