import type * as vscode from 'vscode';
import type { Redactor } from '../api/redact';
import { candidateScopes, scopeOf } from '../domain/keyScope';
import { l10n } from './l10n';
import { PrefixedSecrets } from './secretChanges';

const PREFIX = 'modelAccess.headerSecret/';

/**
 * Values of secret environment headers (`"X-Org-Token": "{{secret}}"` in `modelAccess.environments`), in
 * SecretStorage and bound, like API keys, to the scope of the URL they were set for (its origin, or origin
 * and path prefix): another service never gets them. A URL gets the value of the longest stored scope it
 * lies under. Secret names are `modelAccess.headerSecret/<header, lower case> <scope>` (a header name holds
 * no space). Every value read or stored is registered with the log's redactor.
 */
export class HeaderSecrets extends PrefixedSecrets {
  constructor(secrets: vscode.SecretStorage, redactor?: Redactor) {
    super(secrets, redactor, PREFIX);
  }

  private static secretName(header: string, scope: string): string {
    return `${PREFIX}${header.toLowerCase()} ${scope}`;
  }

  /** The value of `header` for `baseUrl` and the scope it was stored for, or undefined when none is stored. */
  async find(baseUrl: string, header: string): Promise<{ value: string; scope: string } | undefined> {
    const scopes = candidateScopes(baseUrl);
    const values = await Promise.all(scopes.map((s) => this.secrets.get(HeaderSecrets.secretName(header, s))));
    const i = values.findIndex((v) => !!v);
    if (i < 0) {
      return undefined;
    }
    const value = values[i] as string;
    this.redactor?.add(value);
    return { value, scope: scopes[i] };
  }

  async get(baseUrl: string, header: string): Promise<string | undefined> {
    return (await this.find(baseUrl, header))?.value;
  }

  /** Stores `value` for `header` at the scope of `baseUrl` (an empty value removes it); returns the scope. */
  async set(baseUrl: string, header: string, value: string): Promise<string> {
    const scope = scopeOf(baseUrl);
    if (!scope) {
      throw new Error(l10n.t('The service URL is not a valid http(s) URL.'));
    }
    const name = HeaderSecrets.secretName(header, scope);
    await this.write(name, value.trim());
    return scope;
  }
}
