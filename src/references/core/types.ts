/**
 * Model references: where a workspace names the registry's model ids (issue 45). The shapes shared by the
 * pure core (matcher, scan, verdict), the command line and the editor. Pure; no `vscode` import.
 */

/** One place a file names a model id: a whole string literal or a whole config value. */
export interface ModelReference {
  /** The id as written: the whole string literal's content / the whole config value. */
  id: string;
  /** 0-based line. */
  line: number;
  /** 0-based UTF-16 column of the id's first character (inside the quotes). */
  character: number;
  /** UTF-16 length of the id as written. */
  length: number;
  /** The lookup lists it; false: an unknown candidate one edit away from a listed id. */
  listed: boolean;
  /** For an unlisted candidate: the listed id one edit away ("did you mean"). */
  nearest?: string;
}

/** The registry's ids as the matcher asks about them. */
export interface IdLookup {
  has(id: string): boolean;
  /**
   * The listed id one edit (an insertion, a deletion, a substitution or two neighbours swapped) away from
   * `candidate`, or undefined; never `candidate` itself. Costs the same with 100 or 100,000 ids.
   */
  nearest(candidate: string): string | undefined;
  readonly size: number;
}
