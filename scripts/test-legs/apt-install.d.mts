// Types of apt-install.mjs for the TypeScript tests that import it.
import type { machine } from "./machine.mjs";

export declare function aptInstall(machine: typeof import("./machine.mjs").machine, debianPackage: string): Promise<{ ok: true } | { ok: false; tail: string }>;
