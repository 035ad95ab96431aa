/**
 * A payload's child tests for the rows of its dataset (`// @each`): one per row, id `<payload id>#row:<line>`
 * (stable while the row stays on its line), labelled with the row's name from core/rowNames
 * (`sums.csv: 2, 3`), in the file's order. And the way back from a result to its
 * child: by the row's line, never by reading the label.
 */
import * as vscode from 'vscode';
import type { Dataset } from '../domain/payload/dataset';
import { rowNames } from './core/rowNames';

/** A payload's children for its dataset's rows (and rows that cannot be read), the first `maxRows` of them. */
export function rowChildren(
  controller: vscode.TestController,
  payload: vscode.TestItem,
  uri: vscode.Uri,
  dataset: { file: string; line: number; rows: Dataset },
  maxRows: number,
): vscode.TestItem[] {
  const names = rowNames(dataset.file, dataset.rows.rows, dataset.rows.problems);
  const lines = [...names.keys()].sort((a, b) => a - b);
  return lines.slice(0, maxRows).map((line) => {
    const child = controller.createTestItem(`${payload.id}#row:${line}`, names.get(line) ?? '', uri);
    // No description with the line: Test Explorer then reads the description instead of the label as the
    // row's accessible name ("line 4 (Passed)"). The rows are in the file's order, alike ones carry the line.
    child.range = new vscode.Range(dataset.line, 0, dataset.line, 0);
    child.sortText = String(line).padStart(8, '0');
    return child;
  });
}

/** The child of a payload for a dataset row, by its line (a result's `row.line`; undefined: the payload itself). */
export function rowChildOf(payload: vscode.TestItem, line: number | undefined): vscode.TestItem | undefined {
  return line === undefined ? undefined : payload.children.get(`${payload.id}#row:${line}`);
}
