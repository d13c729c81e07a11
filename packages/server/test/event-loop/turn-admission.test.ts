import { createConnection, createServer, type AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { TurnAdmission } from "../../src/event-loop/turn-admission.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Spins for `ms` of the thread's time: a task with synchronous work, as a question's start has. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe("TurnAdmission (happy)", () => {
  test("runs the first `perTurn` tasks at once and the rest in later turns, in arrival order", async () => {
    const admission = new TurnAdmission(3);
    const ran: number[] = [];
    for (let task = 0; task < 8; task++) admission.run(() => ran.push(task));
    expect(ran).toEqual([0, 1, 2]);
    expect(admission.queued).toBe(5);
    await nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    await nextTurn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(admission.queued).toBe(0);
  });

  test("a timer due during a wave runs between two slices of it, not after the whole wave", async () => {
    const admission = new TurnAdmission(4);
    const order: string[] = [];
    let timerFired = false;
    setTimeout(() => {
      timerFired = true;
      order.push("timer");
    }, 0);
    busyFor(2); // the timer is due before the wave starts
    for (let task = 0; task < 40; task++) admission.run(() => order.push(`task ${task}`));
    while (!timerFired || admission.queued > 0) await nextTurn();
    const timerAt = order.indexOf("timer");
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThanOrEqual(12);
    expect(order.filter((entry) => entry !== "timer")).toEqual(Array.from({ length: 40 }, (_, task) => `task ${task}`));
  });

  test("a socket readable during a wave is read between two slices of it", async () => {
    const admission = new TurnAdmission(5);
    const order: string[] = [];
    const server = createServer((socket) => socket.on("data", () => order.push("data")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = createConnection((server.address() as AddressInfo).port, "127.0.0.1");
    await new Promise<void>((resolve) => client.once("connect", resolve));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the server has accepted it
    try {
      // 100 tasks of 1 ms each: without admission, the data would be read after 100 ms of them.
      for (let task = 0; task < 100; task++)
        admission.run(() => {
          busyFor(1);
          order.push(`task ${task}`);
        });
      client.write("ping");
      while (!order.includes("data") || admission.queued > 0) await nextTurn();
      const readAt = order.indexOf("data");
      expect(readAt).toBeGreaterThanOrEqual(5);
      expect(readAt).toBeLessThan(40);
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("admit() resolves in arrival order, `perTurn` at a turn", async () => {
    const admission = new TurnAdmission(2);
    const admitted: number[] = [];
    const all = Array.from({ length: 5 }, (_, caller) => admission.admit().then(() => admitted.push(caller)));
    await Promise.resolve();
    expect(admitted).toEqual([0, 1]);
    await Promise.all(all);
    expect(admitted).toEqual([0, 1, 2, 3, 4]);
  });

  test("an idle admission leaves nothing scheduled: the next task after a quiet turn runs at once", async () => {
    const admission = new TurnAdmission(1);
    const ran: string[] = [];
    admission.run(() => ran.push("first"));
    await nextTurn();
    await nextTurn();
    admission.run(() => ran.push("second"));
    expect(ran).toEqual(["first", "second"]);
  });
});

describe("TurnAdmission (error)", () => {
  test.each([0, -1, 1.5, Number.NaN])("refuses %s tasks per turn", (perTurn) => {
    expect(() => new TurnAdmission(perTurn)).toThrow(RangeError);
  });
});
