/** A message as a client learns it: from `message.created` or from a catch-up read. */
export interface SeenMessage {
  id: string;
  seq: number | null;
  role: string;
  content: string;
}

/** Reads the messages above `afterSeq`, in seq order (the widget's or the console's catch-up route). */
export type CatchUp = (afterSeq: number) => Promise<{ messages: SeenMessage[]; hasMore: boolean; updatedSeq?: number }>;

/**
 * What one client knows of one conversation, kept as the API tells clients to
 * (docs/api.md, "Catching up"): events are applied by `seq`; after a reconnect, or when an event's
 * seq skips one (an event published by a process that died before it reached Redis), the client
 * reads the messages above the last seq it has, again while `has_more`. Messages are kept by id,
 * so an event and a read of the same message count once; `deliveries` counts every copy heard.
 */
export class ConversationView {
  readonly messages = new Map<string, SeenMessage>();
  /** Every message.created heard, by message id (more than one: a duplicate delivery). */
  readonly deliveries = new Map<string, number>();
  lastSeq = 0;
  catchUps = 0;
  #running: Promise<void> | null = null;
  #again = false;

  constructor(private readonly read: CatchUp) {}

  /** A `message.created` (or `conversation.updated`, which takes a seq too) heard live. */
  heard(event: { seq?: number | null; id?: string; role?: string; content?: string }): void {
    if (event.id !== undefined) {
      this.deliveries.set(event.id, (this.deliveries.get(event.id) ?? 0) + 1);
      this.messages.set(event.id, { id: event.id, seq: event.seq ?? null, role: event.role ?? "", content: event.content ?? "" });
    }
    const seq = event.seq ?? null;
    if (seq === null) return;
    if (seq > this.lastSeq + 1) void this.catchUp();
    else this.lastSeq = Math.max(this.lastSeq, seq);
  }

  /** Reads what was missed; concurrent calls run one read after the other, never two at once. */
  catchUp(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        this.catchUps += 1;
        for (;;) {
          const page = await this.read(this.lastSeq);
          for (const message of page.messages) {
            this.messages.set(message.id, message);
            if (message.seq !== null) this.lastSeq = Math.max(this.lastSeq, message.seq);
          }
          if (page.updatedSeq !== undefined) this.lastSeq = Math.max(this.lastSeq, page.updatedSeq);
          if (!page.hasMore) break;
        }
      } while (this.#again);
    })().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /** Resolves once no catch-up is running. */
  async settled(): Promise<void> {
    while (this.#running) await this.#running.catch(() => undefined);
  }
}
