/**
 * Which files name models, and how each kind writes a string (issue 45's default languages: Python,
 * JavaScript/TypeScript, Java, Go, C#, Ruby, YAML, JSON/JSONC, TOML, `.env`, `.properties`, Jupyter
 * notebooks, HCL). Pure; no `vscode` import.
 */

/** How the matcher reads a kind of file. */
export type Syntax = 'c' | 'python' | 'ruby' | 'hcl' | 'toml' | 'json' | 'yaml' | 'env' | 'properties' | 'notebook';

const BY_EXTENSION: Record<string, Syntax> = {
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  js: 'c',
  jsx: 'c',
  mjs: 'c',
  cjs: 'c',
  ts: 'c',
  tsx: 'c',
  mts: 'c',
  cts: 'c',
  java: 'c',
  go: 'c',
  cs: 'c',
  rb: 'ruby',
  yaml: 'yaml',
  yml: 'yaml',
  json: 'json',
  jsonc: 'json',
  toml: 'toml',
  env: 'env',
  properties: 'properties',
  ipynb: 'notebook',
  tf: 'hcl',
  tfvars: 'hcl',
  hcl: 'hcl',
};

/** The last segment of a `/` or `\` separated path. */
function baseName(fileName: string): string {
  return fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
}

/** The syntax of one of the default languages, or undefined for any other file. */
export function syntaxOf(fileName: string): Syntax | undefined {
  const base = baseName(fileName).toLowerCase();
  // `.env`, `.env.local`, `.env.production`; `app.env` comes by its extension.
  if (base === '.env' || base.startsWith('.env.')) {
    return 'env';
  }
  const dot = base.lastIndexOf('.');
  if (dot <= 0) {
    return undefined;
  }
  return Object.hasOwn(BY_EXTENSION, base.slice(dot + 1)) ? BY_EXTENSION[base.slice(dot + 1)] : undefined;
}

/** Whether the file is of one of the default languages of model references. */
export function isReferenceFile(fileName: string): boolean {
  return syntaxOf(fileName) !== undefined;
}
