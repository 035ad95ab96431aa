import type * as vscode from 'vscode';
import { originOf } from '../api/baseUrl';
import type { Redactor } from '../api/redact';
import { PrefixedSecrets } from './secretChanges';

/**
 * The client certificate's passphrase, in SecretStorage and bound to the service origin it was set for: a
 * different service URL does not get it. Every value read or stored is registered with the log's redactor.
 */
export class ClientCertificatePassphrases extends PrefixedSecrets {
  constructor(secrets: vscode.SecretStorage, redactor?: Redactor) {
    super(secrets, redactor, ClientCertificatePassphrases.prefix);
  }

  private static readonly prefix = 'modelAccess.clientCertificatePassphrase:';

  private static secretName(url: string): string | undefined {
    const origin = originOf(url);
    return origin ? `${ClientCertificatePassphrases.prefix}${origin}` : undefined;
  }

  async get(url: string): Promise<string | undefined> {
    const name = ClientCertificatePassphrases.secretName(url);
    const value = name ? await this.secrets.get(name) : undefined;
    this.redactor?.add(value);
    return value || undefined;
  }

  /** Stores (or with an empty value, removes) the passphrase for `url`'s origin. */
  async set(url: string, value: string): Promise<void> {
    const name = ClientCertificatePassphrases.secretName(url);
    if (!name) {
      return;
    }
    await this.write(name, value);
  }
}
