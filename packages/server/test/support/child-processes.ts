import type { ChildProcess } from "node:child_process";

/**
 * Child processes a test file started (servers, realtime processes, throwaway Redis servers), killed
 * when the test process ends. Vitest stops a worker with SIGTERM, and a process ended by a signal
 * runs no "exit" listener: without the SIGTERM listener below, a child that a failed or timed-out
 * test left running outlives the whole run, holding a port and part of a core.
 */
const running = new Set<ChildProcess>();

function killRunning(): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

let listening = false;

/** Registers `child` to be killed (SIGKILL) when this test process exits or is stopped; returns it. */
export function killedWithTestProcess<Child extends ChildProcess>(child: Child): Child {
  if (!listening) {
    listening = true;
    process.once("exit", killRunning);
    process.once("SIGTERM", () => {
      killRunning();
      // This listener is gone now: the signal again ends the process as it would have.
      process.kill(process.pid, "SIGTERM");
    });
  }
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}
