// Types of chromium-leg.mjs for the TypeScript tests that import it.
import type { Leg } from "./legs.mjs";

export declare const DEBIAN_CHROMIUM: string;
export declare const DEBIAN_CHROMIUM_HEADLESS_SHELL: string;
export declare function createChromiumLeg(options?: { name?: string; debianPackage?: string; packagePath?: string; variable?: string; needs?: string }): Leg;
export declare const chromiumLeg: Leg;
export declare const chromiumHeadlessShellLeg: Leg;
