/**
 * Every command id, view id, setting name and context key the extension uses, in one place.
 * A unit test checks these against package.json so the manifest and the code cannot drift apart.
 */
export const Views = {
  container: 'modelAccess',
  models: 'modelAccess.models',
} as const;

export const Commands = {} as const;

export const Settings = {
  section: 'modelAccess',
  baseUrl: 'baseUrl',
} as const;

export const ContextKeys = {} as const;
