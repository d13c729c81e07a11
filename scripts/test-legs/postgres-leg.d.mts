// Types of postgres-leg.mjs for the TypeScript tests that import it.
import type { Leg } from "./legs.mjs";

export declare const postgresLeg: Leg;
