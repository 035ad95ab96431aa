import type * as vscode from 'vscode';
import { clean } from '../../common/text';
import { modelFromArg } from '../../domain/commandArgs';
import { ENDPOINTS } from '../../domain/payload/endpointHeader';
import { pinToEnvironment } from '../../domain/payload/variables';
import { suitsEndpoint } from '../../domain/modelKind';
import { commandEnvironment } from '../../platform/environments';
import { l10n } from '../../platform/l10n';
import { modelPickItems } from '../../platform/modelPicks';
import type { Services } from '../../services';
import { starterPayload } from './core/templates';
import type { ScratchFiles } from './scratchFiles';

/**
 * New Request…: an endpoint, then a model (the one given by a row or command, the row selected in the Models
 * view when it suits, else the person's pick), then a scratch payload from the starter template.
 */
export async function newRequest(
  deps: Services,
  scratch: ScratchFiles,
  arg?: unknown,
  endpointArg?: unknown,
): Promise<vscode.TextEditor | undefined> {
  // A newcomer may get here before anything loaded the list: load it once, so the template names a model.
  await deps.catalog.ensureLoaded();
  // A model given by a row's menu, the details page or another command is the one used. From the palette,
  // the row selected in the Models view is, when it suits the endpoint; otherwise the person picks.
  const given = modelFromArg(arg, deps.catalog.models);
  const row = given ? undefined : deps.selection.current;
  const target = commandEnvironment(deps.environments, deps.ui, row ?? arg);
  if (!target) {
    return undefined;
  }
  const catalog =
    target.env && target.env.name !== deps.environments.active?.name
      ? deps.catalogs.catalogFor(target.env)
      : deps.catalog;
  // A row selected before a switch to another environment (whose list does not hold it) is not used.
  const selected = row && catalog.models.some((m) => m.id === row.model.id) ? row : undefined;
  // A row under another environment's root: the payload is pinned there, so Send goes where the model is.
  const pin = target.name !== undefined && target.name !== deps.environments.active?.name ? target.name : undefined;
  const preferred = given ?? selected?.model;
  // The endpoints the model suits come first.
  const endpoints = preferred
    ? [...ENDPOINTS].sort((a, b) => Number(suitsEndpoint(preferred, b.path)) - Number(suitsEndpoint(preferred, a.path)))
    : ENDPOINTS;
  const endpoint =
    ENDPOINTS.find((e) => e.path === endpointArg)?.path ??
    (
      await deps.ui.pick(
        endpoints.map((e) => ({ label: e.label, description: clean(`POST ${e.path}`), path: e.path })),
        {
          title: preferred ? l10n.t('New request for {0}', clean(preferred.id)) : l10n.t('New request'),
          placeHolder: l10n.t('Which endpoint?'),
        },
      )
    )?.path;
  if (!endpoint) {
    return undefined;
  }
  let model = given ?? (selected && suitsEndpoint(selected.model, endpoint) ? selected.model : undefined);
  if (!model && catalog.models.length > 0) {
    const picked = await deps.ui.pick(
      modelPickItems(catalog.models, undefined, endpoint, Date.now(), deps.config.prices),
      {
        title: l10n.t('New request: which model for POST {0}?', clean(endpoint)),
        placeHolder: selected
          ? l10n.t(
              '{0} (selected in the Models view) may not answer POST {1}; the models that suit it come first',
              clean(selected.model.id),
              clean(endpoint),
            )
          : l10n.t(
              'The models that suit POST {0} come first; type to search by id, version or family',
              clean(endpoint),
            ),
        matchOnDescription: true,
      },
    );
    if (!picked?.model) {
      return undefined;
    }
    model = picked.model;
  }
  const payload = starterPayload(endpoint, model?.id ?? '', deps.config.requestTemplates);
  return scratch.create(endpoint, (pin !== undefined && pinToEnvironment(payload, pin)) || payload);
}
