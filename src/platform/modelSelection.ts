import type { ModelEntry } from '../api/types';

/** A model row selected in the Models view, with the environment whose root holds it (undefined: the active one). */
export interface SelectedModel {
  model: ModelEntry;
  environment?: string;
}

/**
 * The model row last selected in the Models view, so commands run from the palette (New Request) can use it.
 * The explorer writes it as the selection changes; other features only read it.
 */
export class ModelSelection {
  current: SelectedModel | undefined;
}
