/**
 * What a payload is. Pure; no `vscode` import.
 *
 * A payload is a JSON or JSON-with-comments document that is either
 *  - a scratch file: a file in the extension's scratch folder (*New Request…* creates them), or
 *  - any document whose first line records one of the endpoints: `// POST /v1/responses`, `// POST /v1/chat`,
 *    `// POST /v1/embeddings`.
 * Everything else (a project's package.json, settings, any other JSON) is not a payload: it gets no CodeLens,
 * completion, hover, diagnostics, Send keybinding or palette entries, and the extension never writes into it.
 */
import { readEndpoint } from './endpointHeader';

/**
 * The payload language (package.json): JSON with comments, read by VS Code's JSON language features
 * (`jsonLanguageParticipants`), with word wrap on, so a long turn or prompt never scrolls sideways. Scratch
 * files open in it (`filenamePatterns`); a payload of yours keeps the language you gave it.
 */
export const PAYLOAD_LANGUAGE = 'model-access-payload';

export const PAYLOAD_LANGUAGES: readonly string[] = ['json', 'jsonc', PAYLOAD_LANGUAGE];

/** A URI as far as these checks need it (`vscode.Uri` fits). */
export interface UriParts {
  scheme: string;
  path: string;
}

export interface DocumentFacts {
  languageId: string;
  uri: UriParts;
  /** The document's first line (or all of it: only the first line is read). */
  firstLine: string;
}

/** Whether `uri` is inside `folder` (same scheme, path below it). */
export function isInside(uri: UriParts, folder: UriParts): boolean {
  const base = folder.path.endsWith('/') ? folder.path : `${folder.path}/`;
  return uri.scheme === folder.scheme && uri.path.startsWith(base);
}

/**
 * Where a file stands for `{{$env NAME}}` (variables.ts `EnvPolicy`): one of the person's own scratch
 * payloads, a scratch file whose text was copied in from elsewhere, or any other file.
 *
 * Text that moves into the scratch folder keeps the policy of where it came from: a Fork or copy of a payload
 * that is not one of the person's own scratch payloads, an imported curl command and a request reopened from
 * the history of such a payload are written to a file whose name ends in `.copied.jsonc`
 * (COPIED_SCRATCH_ENDING), and that file reads what a file outside the folder reads. The mark is in the name,
 * where no text written into the file can add or remove it; renaming the file is the person's own choice.
 */
export type ScratchOrigin = 'own' | 'copied' | 'outside';

/** The name ending of a scratch file whose text came from elsewhere (see ScratchOrigin). */
export const COPIED_SCRATCH_ENDING = '.copied.jsonc';

export function scratchOrigin(uri: UriParts, scratchFolder: UriParts): ScratchOrigin {
  if (!isInside(uri, scratchFolder)) {
    return 'outside';
  }
  return /\.copied\.jsonc?$/i.test(uri.path) ? 'copied' : 'own';
}

export function isPayloadDocument(doc: DocumentFacts, scratchFolder: UriParts): boolean {
  if (!PAYLOAD_LANGUAGES.includes(doc.languageId)) {
    return false;
  }
  return isInside(doc.uri, scratchFolder) || readEndpoint(doc.firstLine) !== undefined;
}
