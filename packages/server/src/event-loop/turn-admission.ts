/**
 * Work cut into turns of the event loop: at most `perTurn` tasks of one kind run in a turn; the
 * others wait, in arrival order, for the next turns.
 *
 * Node runs every socket that became readable in one poll phase, one after the other, with each
 * one's synchronous work and the promise continuations it sets off. When 500 answers end together
 * and their visitors' next questions arrive together, or the model worker's message carries 400
 * answers' tokens, that is one turn of 30–150 ms in which nothing else is served: not a health
 * check, not another visitor's tokens. Here a task over the turn's allowance waits for a
 * `setImmediate`, and one queued from within an immediate runs only in the next turn, after the
 * next poll phase: the rest of the server's I/O is served between two slices of the wave. The
 * total work is the same; it is cut into turns.
 *
 * A concurrency limit (p-limit) would not do it: a slot frees inside a callback of the poll phase
 * (a Postgres result) and the next task starts there, in the same turn (docs/benchmarks.md
 * measured it worse). Counting the tasks started per turn is what bounds a turn.
 */
export class TurnAdmission {
  private startedThisTurn = 0;
  private readonly waiting: Array<() => void> = [];
  private turnEndScheduled = false;

  constructor(private readonly perTurn: number) {
    if (!Number.isInteger(perTurn) || perTurn < 1) throw new RangeError("perTurn must be a positive integer");
  }

  /** Runs `task` now while this turn has room and nothing waits; otherwise in a later turn, after those queued before it. */
  run(task: () => void): void {
    if (this.startedThisTurn < this.perTurn && this.waiting.length === 0) {
      this.startedThisTurn += 1;
      this.scheduleTurnEnd();
      task();
      return;
    }
    this.waiting.push(task);
    this.scheduleTurnEnd();
  }

  /** Resolves when the caller may start (see `run`). */
  admit(): Promise<void> {
    return new Promise((resolve) => this.run(resolve));
  }

  /** Tasks waiting for a later turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private scheduleTurnEnd(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    setImmediate(this.endTurn);
  }

  /** Runs in the check phase: a new allowance, spent first on the tasks waiting. */
  private readonly endTurn = (): void => {
    this.turnEndScheduled = false;
    this.startedThisTurn = 0;
    while (this.startedThisTurn < this.perTurn && this.waiting.length > 0) {
      this.startedThisTurn += 1;
      this.waiting.shift()!();
    }
    // What just ran counts against the next poll phase too; the count resets in the next turn.
    if (this.startedThisTurn > 0) this.scheduleTurnEnd();
  };
}
