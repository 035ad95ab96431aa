import * as vscode from 'vscode';
import type { PostEndpoint } from '../../api/types';
import { clean, displayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { SafePickItem } from '../../platform/ui';
import type { Services } from '../../services';
import type { ScratchFiles } from '../payloads/scratchFiles';
import { describeEntry, type HistoryEntry } from './core/historyEntries';
import type { RequestHistory } from './history';
import type { SendOutcome } from './send';

/** Show Request History: re-open, send again or read the summary of an earlier request. */
export async function showHistory(
  deps: Services,
  history: RequestHistory,
  scratch: ScratchFiles,
  sendPayload: (editor: vscode.TextEditor | undefined, endpoint?: PostEndpoint) => Promise<SendOutcome>,
): Promise<void> {
  // The active environment's requests (and those from before environments); the others on request.
  const active = deps.environments.active?.name;
  const mine = (e: HistoryEntry) => !e.environment || e.environment === active;
  const entries = history.entries.filter(mine);
  const others = history.entries.length - entries.length;
  if (history.entries.length === 0) {
    void deps.ui.info(l10n.t('No requests yet.'));
    return;
  }
  type HistoryPick = SafePickItem & { entry?: HistoryEntry; all?: boolean };
  const items = (list: readonly HistoryEntry[]): HistoryPick[] =>
    list.map((e) => ({
      label: displayText(describeEntry(e)),
      description: displayText(new Date(e.at).toLocaleString()),
      detail: displayText(e.summary, 300),
      entry: e,
    }));
  let pick = await deps.ui.pick<HistoryPick>(
    [
      ...items(entries),
      ...(others > 0
        ? [
            {
              label:
                others === 1
                  ? l10n.t('1 request to other environments…')
                  : l10n.t('{0} requests to other environments…', others),
              all: true,
            },
          ]
        : []),
    ],
    { title: active ? l10n.t('Request history · {0}', clean(active)) : l10n.t('Request history'), matchOnDetail: true },
  );
  if (pick?.all) {
    pick = await deps.ui.pick<HistoryPick>(items(history.entries), {
      title: l10n.t('Request history · every environment'),
      matchOnDetail: true,
    });
  }
  if (!pick?.entry) {
    return;
  }
  const chosen = pick.entry;
  const action = await deps.ui.pick(
    [
      { label: l10n.t('$(go-to-file) Re-open the payload'), run: 'open' },
      { label: l10n.t('$(play) Send it again'), run: 'send' },
      { label: l10n.t('$(output) Show the response summary'), run: 'show' },
    ],
    { title: displayText(describeEntry(chosen)) },
  );
  if (!action) {
    return;
  }
  if (action.run === 'show') {
    void deps.ui.info(
      l10n.t('{0}: {1}', describeEntry(chosen), chosen.summary ? clean(chosen.summary) : l10n.t('(empty answer)')),
    );
    return;
  }
  const editor = await reopen(chosen, scratch);
  if (editor && action.run === 'send' && chosen.endpoint !== '/v1/files') {
    await sendPayload(editor, chosen.endpoint);
  }
}

/** The payload's own file when it still exists, else a new scratch file holding what was sent. */
async function reopen(entry: HistoryEntry, scratch: ScratchFiles): Promise<vscode.TextEditor | undefined> {
  if (entry.endpoint === '/v1/files') {
    return entry.source
      ? vscode.window.showTextDocument(vscode.Uri.parse(entry.source), { preview: false })
      : undefined;
  }
  if (entry.source) {
    try {
      return await vscode.window.showTextDocument(vscode.Uri.parse(entry.source), { preview: false });
    } catch {
      // Deleted or moved: fall through to a new scratch file.
    }
  }
  // It keeps the `{{$env}}` policy of the file it was sent from (a payload without one: a file from elsewhere).
  return scratch.create(entry.endpoint, entry.payload, entry.source ? vscode.Uri.parse(entry.source) : 'elsewhere');
}

export async function clearHistory(deps: Services, history: RequestHistory): Promise<void> {
  await history.clear();
  void deps.ui.info(l10n.t('Request history cleared.'));
}
