// Types for scripts/l10n.mjs, so the unit tests can run the same extraction as the build.
/** The bundle for the sources under `root`/src: message → message. */
export function extract(root?: string): Promise<Record<string, string | { message: string; comment: string[] }>>;
/** Writes l10n/bundle.l10n.json (and with `pseudo`, the qps-ploc files); returns the number of messages. */
export function writeBundle(root?: string, options?: { pseudo?: boolean }): Promise<number>;
