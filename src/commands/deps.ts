import type { ApiKeyStore } from '../auth/apiKeys';
import type { Config } from '../config';
import type { RedactingLog } from '../log';
import type { ModelCatalog } from '../models/catalog';
import type { ModelDocuments } from '../models/inspect';
import type { ModelsView } from '../models/modelsView';
import type { ServiceConnection } from '../service';
import type { Ui } from '../ui';

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
