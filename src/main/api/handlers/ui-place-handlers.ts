/** The console's last place, per data directory (`services/ui-place`). */
import { UiPlaceFile } from '../../services/ui-place/ui-place-file';
import type { Services } from '../../services/services';
import type { Handlers } from '../router';

export function uiPlaceHandlers(
  services: Services,
): Pick<Handlers, 'ui.place.get' | 'ui.place.save'> {
  const file = new UiPlaceFile(services.identity.dataDir);
  return {
    'ui.place.get': () => file.read(),
    'ui.place.save': async ({ hash }) => {
      await file.save(hash);
      return { saved: true };
    },
  };
}
