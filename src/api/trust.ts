/**
 * The certificate authorities the client trusts: Node's bundled roots, the operating system's store (VS Code's
 * `http.systemCertificates`), `NODE_EXTRA_CA_CERTS` and the PEM files of `modelAccess.tls.caCertificates`.
 * Each root keeps the name of where it came from, so Diagnose Connection can say which one trusted a service.
 * Pure, no `vscode` import.
 */
import { readFileSync, statSync } from 'node:fs';
import * as tls from 'node:tls';
import { ServiceError } from './errors';
import { l10n } from '../common/plainL10n';

export interface TrustOptions {
  /** Add the operating system's roots (VS Code's `http.systemCertificates`, on by default). */
  systemCertificates?: boolean;
  /** PEM files whose certificates are added to the roots (`modelAccess.tls.caCertificates`). */
  caFiles?: readonly string[];
  /** Where to read `NODE_EXTRA_CA_CERTS`. */
  env?: Record<string, string | undefined>;
}

export interface TrustedRoot {
  pem: string;
  /** `Node's bundled roots`, `the OS trust store (…)`, `NODE_EXTRA_CA_CERTS (…)`, `modelAccess.tls.caCertificates (…)`. */
  source: string;
}

/** Where distributions keep the system's bundle, for a Node without `tls.getCACertificates('system')`. */
export const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Alpine, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/pki/tls/cacert.pem', // OpenELEC
  '/etc/ssl/cert.pem', // macOS, some BSDs
];

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text, one string each. */
export function splitPem(text: string): string[] {
  return (text.match(PEM_CERT) ?? []).map((s) => `${s}\n`);
}

type GetCACertificates = (type: 'system' | 'bundled' | 'extra' | 'default') => string[];

function nodeStore(type: 'system' | 'extra'): string[] | undefined {
  const get = (tls as unknown as { getCACertificates?: GetCACertificates }).getCACertificates;
  if (typeof get !== 'function') {
    return undefined;
  }
  try {
    return get(type);
  } catch {
    return undefined;
  }
}

/** The OS roots and where they came from; an empty list when neither Node nor a bundle file has them. */
export function systemRoots(bundles: readonly string[] = SYSTEM_BUNDLES): { pems: string[]; from: string } {
  const fromNode = nodeStore('system');
  if (fromNode && fromNode.length > 0) {
    return { pems: fromNode, from: l10n.t('the OS trust store') };
  }
  for (const file of bundles) {
    try {
      if (!statSync(file).isFile()) {
        continue;
      }
      const pems = splitPem(readFileSync(file, 'utf8'));
      if (pems.length > 0) {
        return { pems, from: l10n.t('the OS trust store ({0})', file) };
      }
    } catch {
      // Not on this distribution; try the next place.
    }
  }
  return { pems: [], from: l10n.t('the OS trust store (not found)') };
}

/** The certificates of one user-named PEM file; throws a `config` error a person can act on. */
export function readCaFile(file: string, setting: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'unreadable';
    throw new ServiceError({
      kind: 'config',
      code: 'TLS_CONFIG',
      message: l10n.t('Could not read the CA certificate file {0} named in {1} ({2}).', file, setting, code),
    });
  }
  const pems = splitPem(text);
  if (pems.length === 0) {
    throw new ServiceError({
      kind: 'config',
      code: 'TLS_CONFIG',
      message: l10n.t(
        'The CA certificate file {0} named in {1} holds no PEM certificate (-----BEGIN CERTIFICATE-----).',
        file,
        setting,
      ),
    });
  }
  return pems;
}

// The OS store is a few hundred KB read and parsed; clients are rebuilt on every settings change.
let systemCache: { key: string; value: { pems: string[]; from: string } } | undefined;

function cachedSystemRoots(): { pems: string[]; from: string } {
  let key = 'node';
  if (!nodeStore('system')) {
    key = SYSTEM_BUNDLES.map((f) => {
      try {
        return `${f}:${statSync(f).mtimeMs}`;
      } catch {
        return '';
      }
    }).join('|');
  }
  if (systemCache?.key !== key) {
    systemCache = { key, value: systemRoots() };
  }
  return systemCache.value;
}

/**
 * Every root the client trusts, each with its source. Undefined when nothing beyond Node's defaults is asked
 * for: then Node's own store applies (it already holds `NODE_EXTRA_CA_CERTS`).
 */
export function trustedRoots(o: TrustOptions): TrustedRoot[] | undefined {
  const caFiles = (o.caFiles ?? []).map((f) => f.trim()).filter(Boolean);
  const extraFile = o.env?.NODE_EXTRA_CA_CERTS?.trim();
  if (!o.systemCertificates && caFiles.length === 0) {
    return undefined;
  }
  const roots: TrustedRoot[] = tls.rootCertificates.map((pem) => ({ pem, source: l10n.t("Node's bundled roots") }));
  if (o.systemCertificates) {
    const system = cachedSystemRoots();
    roots.push(...system.pems.map((pem) => ({ pem, source: system.from })));
  }
  if (extraFile) {
    // Passing `ca` replaces Node's default store, which is where Node put these; read them again.
    let extra: string[] = [];
    try {
      extra = nodeStore('extra') ?? splitPem(readFileSync(extraFile, 'utf8'));
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; so do we (Diagnose Connection shows it).
    }
    roots.push(...extra.map((pem) => ({ pem, source: l10n.t('NODE_EXTRA_CA_CERTS ({0})', extraFile) })));
  }
  for (const file of caFiles) {
    roots.push(
      ...readCaFile(file, 'modelAccess.tls.caCertificates').map((pem) => ({
        pem,
        source: l10n.t('modelAccess.tls.caCertificates ({0})', file),
      })),
    );
  }
  return roots;
}
