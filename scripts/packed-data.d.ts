// Types for scripts/packed-data.js, so the TypeScript tests can import it.
import type { Plugin } from 'esbuild';

/** The esbuild plugin that stores the tables of PACKED brotli-compressed in a bundle. */
export const packedData: Plugin;
/** node_modules path of each packed module → where its original bytes come from. */
export const PACKED: Record<string, { source: string }>;
