/** What one consistent read of a CasCell returns. */
export type CellFields = Readonly<Record<string, string>>;

export interface CellSnapshot {
  /** Version of the object this state was read from; 1 is the first. */
  readonly version: number;
  /** Writer that created this version (several processes may share one). */
  readonly writerId: string;
  readonly fields: CellFields;
}
