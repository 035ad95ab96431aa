import * as vscode from 'vscode';
import { readDataset } from '../../domain/payload/dataset';
import { datasetFields, eachLine, type DatasetFields } from '../../domain/payload/datasetVariables';
import { Lifecycle } from '../../platform/lifecycle';
import { readPayloadFile } from '../../platform/payloadFiles';

/**
 * The dataset a payload's `// @each FILE` names (beside the payload, read as a check run reads it, by
 * platform/payloadFiles.ts), read once and again when the file changes, open or on disk. `changed` fires
 * then, so the editor checks the payloads again.
 */
export class PayloadDatasets extends Lifecycle {
  private readonly cache = new Map<string, Promise<DatasetFields | undefined>>();
  /** The datasets read so far, by file, for what must answer at once (hover). */
  private readonly known = new Map<string, DatasetFields | undefined>();
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly scratch: vscode.Uri) {
    super();
    const forget = (uri: vscode.Uri) => {
      this.known.delete(uri.toString());
      if (this.cache.delete(uri.toString())) {
        this._onDidChange.fire();
      }
    };
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{jsonl,ndjson,csv}');
    this.own(
      this._onDidChange,
      watcher,
      watcher.onDidChange(forget),
      watcher.onDidCreate(forget),
      watcher.onDidDelete(forget),
      vscode.workspace.onDidChangeTextDocument((e) => forget(e.document.uri)),
    );
  }

  /** The dataset of `doc`, or undefined when it names none or the file cannot be read. */
  fieldsFor(doc: vscode.TextDocument): Promise<DatasetFields | undefined> {
    const target = this.datasetOf(doc);
    if (target === undefined) {
      return Promise.resolve(undefined);
    }
    const key = target.uri.toString();
    let fields = this.cache.get(key);
    if (fields === undefined) {
      fields = readPayloadFile(doc.uri, target.file, this.scratch).then((file) => {
        const read = file.ok ? datasetFields(target.file, readDataset(file.text, target.file)) : undefined;
        this.known.set(key, read);
        return read;
      });
      this.cache.set(key, fields);
    }
    return fields;
  }

  /** The dataset of `doc` if it has been read already (else undefined; `fieldsFor` reads it). */
  readFieldsFor(doc: vscode.TextDocument): DatasetFields | undefined {
    const target = this.datasetOf(doc);
    return target === undefined ? undefined : this.known.get(target.uri.toString());
  }

  private datasetOf(doc: vscode.TextDocument): { uri: vscode.Uri; file: string } | undefined {
    const each = eachLine(doc.getText());
    if (each === undefined || doc.uri.scheme === 'untitled') {
      return undefined;
    }
    return { uri: vscode.Uri.joinPath(doc.uri, '..', each.file), file: each.file };
  }
}
