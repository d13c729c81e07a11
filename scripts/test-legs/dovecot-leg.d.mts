// Types of dovecot-leg.mjs for the TypeScript tests that import it.
import type { Leg } from "./legs.mjs";

export declare const DEBIAN_DOVECOT: string;
export declare const dovecotLeg: Leg;
