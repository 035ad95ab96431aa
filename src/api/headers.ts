import { version } from '../../package.json';

/** What the extension sends as User-Agent: to the service, and for Model Cards. */
export const USER_AGENT = `model-access-vscode/${version}`;

/** Response headers as undici gives them: lower-case names, a repeated header as an array. */
export type Headers = Record<string, string | string[] | undefined>;

/**
 * A header's value; of a repeated header the first (the headers read here — Content-Type, Location,
 * Retry-After, error codes — are single-valued, and a second copy is more likely injected than meant).
 */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
