/**
 * Tree item ids: VS Code keeps selection and expansion by id and requires it to be unique in the tree.
 * Ids are built from registry text, so the parts are JSON-encoded as an array: no two different part
 * lists give the same id, whatever characters the parts hold. Pure; no `vscode` import.
 */
export function treeItemId(parts: readonly (string | number)[]): string {
  return JSON.stringify(parts);
}
