// Types of leg-record.mjs (its JSDoc typedefs) for the TypeScript tests that import it.

export interface LegOutcome {
  name: string;
  target: string;
  status: "ready" | "skipped";
  reason: string | null;
  actions: string[];
  ms: number;
}

export interface LegRecord {
  writtenAt: string;
  requireAll: boolean;
  legs: LegOutcome[];
}

export declare function legRecordPath(env?: NodeJS.ProcessEnv): string;
export declare function writeLegRecord(record: LegRecord, path: string): void;
export declare function readLegRecord(path: string): LegRecord | null;
export declare function requireAllLegs(env?: NodeJS.ProcessEnv): boolean;
