export interface HostSchedulerOptions {
  maxConcurrentPerHost: number;
}

/** Politeness per host: a cap on parallel requests and Crawl-delay spacing between their starts. */
export interface HostScheduler {
  /**
   * Runs `task` once the host has a free slot and `crawlDelayMs` has passed since the
   * previous start on that host. Tasks of one host start in the order they were given.
   */
  run<T>(host: string, crawlDelayMs: number, task: () => Promise<T>): Promise<T>;
}

interface Waiting {
  crawlDelayMs: number;
  start: () => void;
}

interface HostState {
  active: number;
  queue: Waiting[];
  nextStartAt: number;
  timer: NodeJS.Timeout | undefined;
}

export function createHostScheduler(options: HostSchedulerOptions): HostScheduler {
  const hosts = new Map<string, HostState>();
  const maxConcurrent = Math.max(1, options.maxConcurrentPerHost);
  const now = () => performance.now();

  function pump(host: string, state: HostState): void {
    while (state.active < maxConcurrent && state.queue.length > 0 && state.timer === undefined) {
      const wait = state.nextStartAt - now();
      if (wait > 0) {
        state.timer = setTimeout(() => {
          state.timer = undefined;
          pump(host, state);
        }, Math.ceil(wait));
        return;
      }
      const next = state.queue.shift();
      if (next === undefined) return;
      state.active += 1;
      state.nextStartAt = now() + next.crawlDelayMs;
      next.start();
    }
    forgetWhenIdle(host, state);
  }

  /** An idle host is dropped once its Crawl-delay has run out, so the map does not grow forever. */
  function forgetWhenIdle(host: string, state: HostState): void {
    if (state.active > 0 || state.queue.length > 0 || state.timer !== undefined) return;
    const wait = state.nextStartAt - now();
    if (wait <= 0) {
      hosts.delete(host);
      return;
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      if (state.active === 0 && state.queue.length === 0) hosts.delete(host);
      else pump(host, state);
    }, Math.ceil(wait));
    state.timer.unref();
  }

  return {
    run(host, crawlDelayMs, task) {
      let state = hosts.get(host);
      if (state === undefined) {
        state = { active: 0, queue: [], nextStartAt: 0, timer: undefined };
        hosts.set(host, state);
      }
      const hostState = state;
      return new Promise((resolve, reject) => {
        hostState.queue.push({
          crawlDelayMs,
          start: () => {
            task()
              .then(resolve, reject)
              .finally(() => {
                hostState.active -= 1;
                pump(host, hostState);
              });
          },
        });
        pump(host, hostState);
      });
    },
  };
}
