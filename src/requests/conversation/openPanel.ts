import type * as vscode from 'vscode';
import type { DisplayText } from '../../common/text';
import type { SentRequest } from '../code/codeCommands';
import type { PanelMessage } from './core/panelProtocol';
import type { RenderedAnswers } from './core/panelMarkdown';
import type { TurnExchange } from './core/panelView';

/** One open conversation panel: its payload, what its page shows now, and what it knows of the answers. */
export interface Panel {
  panel: vscode.WebviewPanel;
  payload: vscode.Uri;
  timer?: NodeJS.Timeout;
  lastDrawn: number;
  /** The pieces the page shows now (only changed ones are sent). */
  sent: string[];
  header: string;
  draws: number;
  status: string;
  /** What the answers received here cost in all, as the header shows it. */
  totals?: string;
  rendered: RenderedAnswers;
  /** The exchanges behind answers written into the payload, by the answer's text. */
  exchanges: Map<string, TurnExchange>;
  /** The requests behind them as sent (Copy as Code from an exchange), by the answer's text. */
  requests: Map<string, SentRequest>;
  ready: boolean;
}

export function post(p: Panel, message: PanelMessage): void {
  void p.panel.webview.postMessage(message);
}

/** A line the page shows and reads out (its live region). */
export function announce(p: Panel, text: DisplayText): void {
  post(p, { type: 'announce', text });
}
