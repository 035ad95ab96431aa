/**
 * Bearer-key authentication: every endpoint requires `Authorization: Bearer <key>` and the key decides the
 * caller's organization. Error messages never repeat the key (unless the `echoKey` fault asks for exactly
 * that, to test the client's redaction).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './http';

export interface Caller {
  organization: string;
  key: string;
}

/** Resolves the caller from the headers or throws a 401 ApiError. */
export function authenticate(headers: IncomingHttpHeaders, orgByKey: ReadonlyMap<string, string>): Caller {
  const header = headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw unauthorized(
      'missing_api_key',
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    );
  }
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  if (!match) {
    throw unauthorized(
      'invalid_authorization_header',
      'The Authorization header is malformed; expected "Bearer <API key>".',
    );
  }
  const key = match[1];
  const organization = orgByKey.get(key);
  if (organization === undefined) {
    throw unauthorized(
      'invalid_api_key',
      'Incorrect API key provided. You can find your API key in your organization settings.',
    );
  }
  return { organization, key };
}

/** The raw value after "Bearer", even when unknown — used only by the echo-key fault. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer[ \t]+(.+)$/i.exec(headers.authorization ?? '');
  return match?.[1].trim();
}

function unauthorized(code: string, message: string): ApiError {
  return new ApiError(401, 'invalid_request_error', code, message, null, {
    'www-authenticate': 'Bearer realm="model-access"',
  });
}
