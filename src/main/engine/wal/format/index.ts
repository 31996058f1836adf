/**
 * The WAL object format, version 1: layout and types (`layout`), the encoder (`encode`) and
 * the verifying decoders (`decode`; `decode-segment` for one segment). Import the format from
 * here.
 */
export * from './layout';
export * from './encode';
export * from './decode';
export * from './decode-segment';
