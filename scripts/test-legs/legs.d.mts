// Types of legs.mjs (its JSDoc typedefs) for the TypeScript tests that import it.
import type { machine } from "./machine.mjs";

export interface Probe {
  ready: boolean;
  problem: string;
}

export interface ProvisionContext {
  machine: typeof machine;
  did: (action: string) => void;
}

export interface Leg {
  name: string;
  needs: string;
  target: (env: NodeJS.ProcessEnv) => string;
  probe: (target: string) => Promise<Probe>;
  provision: (target: string, first: Probe, context: ProvisionContext) => Promise<Probe>;
}

export declare const legs: Leg[];
