import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function auditHandlers({ audit }: Services): Pick<Handlers, 'audit.recent' | 'audit.page'> {
  return {
    'audit.recent': ({ limit }) => audit.recent(limit),
    'audit.page': ({ limit, before }) => audit.page(limit, before),
  };
}
