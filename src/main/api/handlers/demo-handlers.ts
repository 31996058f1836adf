import { generateDemoData } from '../../services/demo/demo-data';
import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function demoHandlers(services: Services): Pick<Handlers, 'demo.generate'> {
  return { 'demo.generate': ({ connectionId }) => generateDemoData(services, connectionId) };
}
