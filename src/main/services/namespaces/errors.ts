/**
 * The registry answers "absent" with null (never an error); a caller acting on one name
 * (the CLI's `placement` / `deprecate`) reports that as this typed error.
 */
import { CairnError } from '../../engine/errors';

export class NamespaceNotFoundError extends CairnError {
  override readonly code = 'NamespaceNotFound' as const;
  constructor(readonly namespace: string) {
    super('NamespaceNotFound', `no namespace is named ${JSON.stringify(namespace)}`, { namespace });
  }
}
