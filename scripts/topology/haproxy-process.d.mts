// Types of haproxy-process.mjs for the TypeScript tests that import it.
import type { ChildProcess } from "node:child_process";

export declare function startHaproxy(options: { path: string; config: string; bind: string }): Promise<{ child: ChildProcess; output(): string; stop(): Promise<void> }>;
export declare function haproxyStats(statsAddress: string): Promise<Record<string, string>[]>;
