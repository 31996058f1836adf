/**
 * The WAL contract on every backend: memory, a local directory, and a real S3 when
 * CAIRN_S3_ENDPOINT is set (skipped otherwise, with one line saying so).
 */
import { s3Lane } from '../../support/s3';
import { localLane, memoryLane, s3WalLane } from './lane-kit';
import { walContract } from './wal-contract';

const s3 = s3Lane();

walContract(memoryLane(), 'memory');
walContract(localLane(), 'a local directory');
walContract(s3 === null ? null : s3WalLane(s3), 'S3 (CAIRN_S3_ENDPOINT)');
