import * as vscode from 'vscode';
import type { RequestLogEntry } from '../api/types';
import { Redactor } from '../api/redact';
import { displayText } from '../common/text';

/** Longest log line kept; one line each, so text from a server can never forge a second entry. */
const MAX_LOG_LINE = 4000;

/**
 * The "Model Access" log channel. Every message goes through a {@link Redactor} first, so a key echoed
 * back by a server, or a header pasted into an error, never reaches the Output view or the log file.
 * It is itself a `LogOutputChannel`, so features receive it as one.
 */
export class RedactingLog implements vscode.LogOutputChannel {
  readonly redactor = new Redactor();
  private readonly channel: vscode.LogOutputChannel;

  constructor(name = 'Model Access') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  get name(): string {
    return this.channel.name;
  }
  get logLevel(): vscode.LogLevel {
    return this.channel.logLevel;
  }
  get onDidChangeLogLevel(): vscode.Event<vscode.LogLevel> {
    return this.channel.onDidChangeLogLevel;
  }

  /** Redacted, then one line of display text: server text in a message cannot start a forged log entry. */
  private line(text: string): string {
    return displayText(this.redactor.redact(text), MAX_LOG_LINE);
  }

  private clean(message: string, args: unknown[]): [string, ...unknown[]] {
    return [this.line(String(message)), ...args.map((a) => this.cleanArg(a))];
  }

  private cleanArg(arg: unknown): unknown {
    if (arg instanceof Error) {
      const e = new Error(this.line(arg.message));
      e.name = arg.name;
      return e;
    }
    if (typeof arg === 'string') {
      return this.line(arg);
    }
    try {
      return this.line(JSON.stringify(arg) ?? String(arg));
    } catch {
      return '[unserializable]';
    }
  }

  trace(message: string, ...args: unknown[]): void {
    this.channel.trace(...this.clean(message, args));
  }
  debug(message: string, ...args: unknown[]): void {
    this.channel.debug(...this.clean(message, args));
  }
  info(message: string, ...args: unknown[]): void {
    this.channel.info(...this.clean(message, args));
  }
  warn(message: string, ...args: unknown[]): void {
    this.channel.warn(...this.clean(message, args));
  }
  error(error: string | Error, ...args: unknown[]): void {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : error;
    this.channel.error(...this.clean(message, args));
  }
  append(value: string): void {
    this.channel.append(this.redactor.redact(value));
  }
  appendLine(value: string): void {
    this.channel.appendLine(this.line(value));
  }
  replace(value: string): void {
    this.channel.replace(this.redactor.redact(value));
  }
  clear(): void {
    this.channel.clear();
  }
  show(preserveFocus?: boolean): void;
  show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
  show(a?: boolean | vscode.ViewColumn, b?: boolean): void {
    if (typeof a === 'boolean' || a === undefined) {
      this.channel.show(a);
    } else {
      this.channel.show(a, b);
    }
  }
  hide(): void {
    this.channel.hide();
  }
  dispose(): void {
    this.channel.dispose();
  }

  /** One line per HTTP request: method, path, status, time, request id. Never headers or bodies. */
  request(entry: RequestLogEntry): void {
    const parts = [
      entry.method,
      entry.path,
      entry.status === undefined ? '—' : String(entry.status),
      `${Math.round(entry.elapsedMs)} ms`,
    ];
    if (entry.requestId) {
      parts.push(`request-id ${entry.requestId}`);
    }
    if (entry.attempt && entry.attempt > 1) {
      parts.push(`attempt ${entry.attempt}`);
    }
    if (entry.error) {
      parts.push(`— ${entry.error}`);
    }
    const line = parts.join(' ');
    if (entry.error || (entry.status !== undefined && entry.status >= 400)) {
      this.warn(line);
    } else {
      this.info(line);
    }
  }
}
