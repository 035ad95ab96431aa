/**
 * A client like `inner` but for its POSTs: the one way the run's layers (waiting out 429s, the cache) wrap
 * the service client. Pure; no `vscode` import.
 */
import type { ModelService } from '../../api/types';

export function wrapPost(inner: ModelService, post: ModelService['post']): ModelService {
  const probe = inner.probe?.bind(inner);
  return {
    endpointUrl: (p) => inner.endpointUrl(p),
    listModels: (o) => inner.listModels(o),
    getModel: (id, o) => inner.getModel(id, o),
    post,
    uploadFile: (p, o) => inner.uploadFile(p, o),
    probe,
    dispose: () => inner.dispose(),
  };
}
