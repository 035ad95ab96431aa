/** The core of the extension: the Model Access Service client and its pure helpers. No `vscode` import. */
export * from './types';
export { ServiceClient, USER_AGENT } from './client';
export {
  ServiceError,
  httpError,
  networkError,
  kindForStatus,
  isServiceError,
  readErrorBody,
  cleanLine,
  type ServiceErrorInit,
  type ErrorDetails,
} from './errors';
export { normalizeModel, extractList, extractSingle, httpUrl, LIST_WRAPPERS } from './models';
export { readListPage, type ListPage, type PageContext } from './listPage';
export { findNextPage, parseLinkNext, withParam, type NextPage } from './paging';
export { readEventStream, SseEvent } from './sse';
export { parseBaseUrl, joinUrl, isLoopbackHost, originOf, type ServiceBase } from './baseUrl';
export { retryAfterMs, retryDelay, retryPolicy, isRetryable, type RetryPolicy } from './retry';
export { createDispatcher } from './dispatcher';
export { redact, redactor, REDACTED } from './redact';
