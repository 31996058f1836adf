/**
 * The link folder's public face: a connection's I/O controller (`IoController`), the slots
 * interface read paths take (`IoSlots`), storage whose requests run in those slots
 * (`linkIo`), and fan-outs sized by the link (`fanOut`, `fanOutWhilePaging`, `walkTree`).
 */
export { withSlot, type IoSlot, type IoSlots, type SlotNeed, type RequestKind } from './io-slots';
export { IoController, type IoControllerOptions, type IoLinkStats } from './io-controller';
export {
  controllerOptionsFor,
  fixedLink,
  ioControllerFor,
  LINK_MEMORY_BYTES,
  LOCAL_LINK,
  type LinkShape,
} from './link-shape';
export { directIo, LinkedObjectIo, linkedIo, linkIo, slotsOf } from './linked-object-io';
export { fanOut, fanOutWhilePaging, walkTree } from './link-fanout';
export type { LinkStats } from './link-stats';
export { measureLink, LINK_TEST_REQUESTS, type LinkMeasure } from './measure-link';
