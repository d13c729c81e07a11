// Types of machine.mjs for the TypeScript tests that import it (the module itself stays plain JavaScript).

export interface CommandResult {
  code: number | null;
  output: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
}

export declare const machine: {
  aptSources: { list: string; dir: string };
  isRoot: () => boolean;
  uid: () => number;
  hasCommand: (command: string) => boolean;
  run: (command: string, args: string[], options?: RunOptions) => Promise<CommandResult>;
  runOrThrow: (command: string, args: string[], options?: RunOptions) => Promise<string>;
};

export declare function isLoopback(host: string): boolean;
export declare const sleep: (ms: number) => Promise<void>;
export declare function waitUntilReady<T extends { ready: boolean }>(probe: () => Promise<T>, seconds: number): Promise<T>;
export declare function redactUrl(url: string): string;
