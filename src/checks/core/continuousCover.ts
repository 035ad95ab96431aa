/**
 * What a continuous run covers of a payload whose model changed: Test Explorer's request names tests (all of
 * them, folders, payloads or single dataset rows) and excludes some; the payload re-runs whole when it or a
 * folder above it is named, else only the rows named. Pure; no `vscode` import (test items are read by shape).
 */

/** A test item as far as coverage goes: its id and the item above it. */
export interface CoverItem {
  readonly id: string;
  readonly parent?: CoverItem | undefined;
}

/** The tests a run request names and excludes (undefined `include`: every test). */
export interface CoverRequest<T extends CoverItem> {
  readonly include?: readonly T[] | undefined;
  readonly exclude?: readonly T[] | undefined;
}

function chainOf(item: CoverItem): Set<string> {
  const ids = new Set<string>();
  for (let i: CoverItem | undefined = item; i; i = i.parent) {
    ids.add(i.id);
  }
  return ids;
}

/** Whether `request` names `item` (itself or an item above it) and excludes neither. */
export function covers<T extends CoverItem>(request: CoverRequest<T>, item: CoverItem): boolean {
  const chain = chainOf(item);
  if (request.exclude?.some((e) => chain.has(e.id))) {
    return false;
  }
  return request.include === undefined || request.include.some((e) => chain.has(e.id));
}

/** What of `item` (with its `children`, a dataset's rows) the request covers: the item, some rows, or nothing. */
export function coveredParts<T extends CoverItem>(request: CoverRequest<T>, item: T, children: readonly T[]): T[] {
  if (covers(request, item)) {
    return [item];
  }
  return children.filter((c) => covers(request, c));
}
