/**
 * The scheme of response documents. It is registered at activation, so a response tab VS Code restores
 * after a reload opens at once; the documents' code loads with the first request.
 */
export const RESPONSE_SCHEME = 'model-access-response';

/** What a response document shows when its answer is gone (a restored tab after a reload). */
export const RESPONSE_GONE = '_This response is no longer available; send the request again._\n';

/**
 * The language of response documents: Markdown (its grammar) with word wrap on by default
 * (`configurationDefaults` in package.json), so an answer reads without scrolling sideways.
 */
export const ANSWER_LANGUAGE = 'model-access-answer';
