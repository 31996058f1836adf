/** The `cairn cache` commands' one failure: the index folder could not be read or cleared. */
import { CairnError, isCairnError } from '../../engine/errors';
import { describe } from '../../engine/objectio/local-files';

export class IndexCacheUnreadableError extends CairnError {
  constructor(folder: string, cause: unknown) {
    const reason = isCairnError(cause) ? cause.message : describe(cause);
    super(
      'IndexCacheUnreadable',
      `the local index ${folder} cannot be read: ${reason}`,
      {
        folder,
        reason,
      },
      { cause },
    );
  }
}
