// TEMPORARY: main's layer reshape moves requests/core/payload.ts here; the merge replaces this file.
export * from '../../requests/core/payload';
