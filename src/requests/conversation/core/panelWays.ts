/**
 * The buttons under a failed answer in the conversation panel. The panel's error is the only one shown (Send
 * leaves no notification when the panel shows the answer), so its buttons are every way out: the choice per
 * failure is send/core/wayOut.ts's `panelWayOut`; here the model the request named is looked up in the
 * catalog and each way gets its title. Pure; no `vscode` import.
 */
import { l10n } from '../../../common/l10n';
import type { DisplayText } from '../../../common/text';
import { FAILURE_ACTIONS, type Failure } from '../../../domain/failure';
import { payloadModel } from '../../../domain/payload/parse';
import { panelWayOut, type PanelWay } from '../../send/core/wayOut';
import type { WayOutButton } from './panelView';

/** The ways out of `failure` as buttons; `requestJson` is the request as sent, `listed` the catalog's models. */
export function wayButtons(
  failure: Failure | undefined,
  requestJson: string | undefined,
  listed: readonly { id: string }[],
): WayOutButton[] {
  if (!failure) {
    return [];
  }
  return panelWayOut(failure, modelListed(requestJson, listed)).map((way) => ({ action: way, title: wayTitle(way) }));
}

/** Whether the catalog lists the model the request named (undefined: no catalog yet, or no model named). */
export function modelListed(requestJson: string | undefined, listed: readonly { id: string }[]): boolean | undefined {
  let model: string | undefined;
  try {
    model = payloadModel(JSON.parse(requestJson ?? ''));
  } catch {
    model = undefined;
  }
  return model === undefined || listed.length === 0 ? undefined : listed.some((m) => m.id === model);
}

/** How the button of a way out reads. */
export function wayTitle(way: PanelWay): DisplayText {
  switch (way) {
    case 'retry':
      return l10n.t('Retry');
    case 'pickModel':
      return l10n.t('Pick a Model…');
    case 'switchEnvironment':
      return l10n.t('Switch Environment…');
    default:
      return FAILURE_ACTIONS[way].title;
  }
}
