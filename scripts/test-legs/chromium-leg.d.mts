// Types of chromium-leg.mjs for the TypeScript tests that import it.
import type { Leg } from "./legs.mjs";

export declare const DEBIAN_CHROMIUM: string;
export declare function createChromiumLeg(options?: { packagePath?: string }): Leg;
export declare const chromiumLeg: Leg;
