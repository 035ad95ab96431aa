/**
 * The prices a check run in VS Code judges `// @expect cost` with: the registry entry of the model in the
 * payload's environment (its `// @env`, else the active one), as that environment's model list holds it,
 * with `settingPrices` (the `modelAccess.prices` setting) over it.
 */
import { priceFor, type ModelPrice } from '../domain/cost/prices';
import { pinnedEnvironment } from '../domain/payload/variables';
import type { Services } from '../services';

/** Waits for the environment's model list when the payload checks a cost (a list never loaded has no prices). */
export async function registryPrices(
  deps: Pick<Services, 'environments' | 'catalogs'>,
  payload: string,
  settingPrices?: unknown,
): Promise<(model: string) => ModelPrice | undefined> {
  const pinned = pinnedEnvironment(payload)?.name;
  const env = pinned === undefined ? deps.environments.active : deps.environments.find(pinned);
  const catalog = env ? deps.catalogs.catalogFor(env) : undefined;
  if (catalog && /@expect\s+(total\s+)?cost\b/i.test(payload)) {
    // A list that cannot be read leaves the prices unknown: the check then says "no price", never passes.
    await catalog.ensureLoaded().catch(() => undefined);
  }
  return (model) => priceFor(model, catalog?.models.find((m) => m.id === model)?.raw, settingPrices);
}
