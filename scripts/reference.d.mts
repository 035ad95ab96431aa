// Types for scripts/reference.mjs, so the unit tests can compare docs/reference.md with what it writes.
/** The path of the generated page, relative to the repository. */
export const PAGE: string;
/** docs/reference.md as the script writes it, from package.json and package.nls.json under `root`. */
export function renderReference(root?: string): Promise<string>;
