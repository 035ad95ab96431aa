/** The extension's service client, as the benchmark drives it (src/api/, no VS Code). */
import { ServiceClient } from '../src/api/client';
import type { ModelService, ServiceClientOptions } from '../src/api/types';

export function createClient(baseUrl: string, key: string, extra: Partial<ServiceClientOptions> = {}): ModelService {
  return new ServiceClient({
    baseUrl,
    apiKey: async () => key,
    // Scale runs follow up to 1,000 pages (100k models at 100 a page); no retries so a failure shows.
    maxPages: 100_000,
    retries: { max: 0 },
    timeouts: { headersMs: 120_000, bodyIdleMs: 120_000 },
    ...extra,
  });
}
