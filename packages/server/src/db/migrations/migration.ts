/** One schema change: statements run in order, in one transaction, once. */
export interface Migration {
  name: string;
  statements: string[];
}
