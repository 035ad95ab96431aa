// TEMPORARY: main's layer reshape moves requests/core/variables.ts here; the merge replaces this file.
export * from '../../requests/core/variables';
