import type { ApiKeyStore } from '../platform/apiKeys';
import type { Config } from '../platform/config';
import type { RedactingLog } from '../platform/log';
import type { ModelCatalog } from '../platform/catalog';
import type { ModelDocuments } from '../explorer/inspect';
import type { ModelsView } from '../explorer/modelsView';
import type { ServiceConnection } from '../platform/connection';
import type { Ui } from '../platform/ui';

/** What command groups need; built once in `activate()`. */
export interface CommandDeps {
  config: Config;
  connection: ServiceConnection;
  keys: ApiKeyStore;
  catalog: ModelCatalog;
  view: ModelsView;
  documents: ModelDocuments;
  log: RedactingLog;
  ui: Ui;
}
