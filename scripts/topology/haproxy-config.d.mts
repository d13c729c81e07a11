// Types of haproxy-config.mjs for the TypeScript tests that import it.
export interface HaproxyLayout {
  bind: string;
  servers: { name: string; address: string }[];
  stats?: string;
  checkIntervalMs?: number;
  maxconn?: number;
}

export declare function haproxyConfig(layout: HaproxyLayout): string;
