/**
 * Open sockets per client address, so that one client cannot take every connection slot. In one
 * process the count is this process's own; with Redis (adapters/redis-connection-quota.ts) it is
 * the sum over every live process.
 */
export interface ConnectionQuota {
  /** Counts a socket from `address`, unless the address already holds the limit: then false, and nothing is counted. */
  admit(address: string): Promise<boolean>;
  /** A socket `admit` counted has closed. */
  release(address: string): Promise<void>;
}

/** This process's sockets per address: what the local quota checks, and what a shared one falls back on and resyncs from. */
export class AddressCounts {
  private readonly counts = new Map<string, number>();

  get(address: string): number {
    return this.counts.get(address) ?? 0;
  }

  add(address: string): void {
    this.counts.set(address, this.get(address) + 1);
  }

  remove(address: string): void {
    const count = this.get(address) - 1;
    if (count > 0) this.counts.set(address, count);
    else this.counts.delete(address);
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }
}

/** One process: at most `maxPerAddress` of its sockets per address. */
export function createLocalConnectionQuota(maxPerAddress: number): ConnectionQuota {
  const counts = new AddressCounts();
  return {
    async admit(address) {
      if (counts.get(address) >= maxPerAddress) return false;
      counts.add(address);
      return true;
    },
    async release(address) {
      counts.remove(address);
    },
  };
}
