import type { Services } from '../../services/services';
import type { Handlers } from '../router';

type ConnectionHandlers = Pick<
  Handlers,
  | 'connections.list'
  | 'connections.add'
  | 'connections.remove'
  | 'connections.test'
  | 'connections.link'
  | 'connections.setOperator'
>;

export function connectionHandlers({ connections }: Services): ConnectionHandlers {
  return {
    'connections.list': (_input, { session }) => connections.list(session),
    'connections.add': (spec) => connections.add(spec),
    'connections.remove': async ({ id }) => {
      await connections.remove(id);
      return { removed: true as const };
    },
    'connections.test': ({ id }) => connections.test(id),
    'connections.link': ({ id }) => connections.link(id),
    'connections.setOperator': ({ id, operator }, { session }) =>
      connections.setOperator(id, operator, session),
  };
}
