/**
 * The WAL object format, version 1: layout and types (`layout`), the encoder (`encode`) and
 * the verifying decoders (`decode`). Import the format from here.
 */
export * from './layout';
export * from './encode';
export * from './decode';
