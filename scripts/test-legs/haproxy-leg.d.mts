// Types of haproxy-leg.mjs for the TypeScript tests that import it.
import type { Leg } from "./legs.mjs";

export declare const DEBIAN_HAPROXY: string;
export declare const haproxyLeg: Leg;
