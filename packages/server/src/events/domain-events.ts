import type { Queryable } from "../db/database.js";

/** What a subscriber does with an event, inside the transaction of the change that raised it. */
export type DomainEventSubscriber<Event> = (tx: Queryable, event: Event) => Promise<void>;

/**
 * Side effects of a change (webhooks, inbox notifications …), raised by the use case inside the
 * change's transaction: every subscriber runs in that transaction, so what it writes or queues
 * commits with the change or not at all, and the use case imports none of them.
 */
export interface DomainEvents<Event> {
  raise(tx: Queryable, event: Event): Promise<void>;
}

/** The dispatcher of one process, its subscribers given by the composition root, run in order. */
export function createDomainEvents<Event>(subscribers: readonly DomainEventSubscriber<Event>[]): DomainEvents<Event> {
  return {
    async raise(tx, event) {
      for (const subscriber of subscribers) await subscriber(tx, event);
    },
  };
}
