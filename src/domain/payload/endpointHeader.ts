// TEMPORARY: main's layer reshape moves requests/core/endpointHeader.ts here; the merge replaces this file.
export * from '../../requests/core/endpointHeader';
