import type { FanOutAdapter, LocalSubscribers } from "./fan-out-adapter.js";

/** One process: a published message goes straight to this process's subscribers. */
export function createLocalFanOutAdapter(local: LocalSubscribers): FanOutAdapter {
  return {
    async publish(message) {
      local.deliver(message);
    },
    async publishRights(message) {
      local.applyRights(message);
      return true;
    },
    status: () => ({ up: true }),
    async close() {},
  };
}
