import { isTransaction, type Queryable } from "../db/database.js";

/** What a subscriber does with an event, inside the transaction of the change that raised it. */
export type DomainEventSubscriber<Event> = (tx: Queryable, event: Event) => Promise<void>;

/** What a subscriber does with an event once the change that raised it has committed (never when it rolls back). */
export type AfterCommitSubscriber<Event> = (event: Event) => void | Promise<void>;

/** The subscribers of a dispatcher, by when they run; each kind in the order given. */
export interface DomainEventSubscribers<Event> {
  /** In the change's transaction: what they write or queue commits with it or not at all; one that throws fails the change. */
  inTransaction: readonly DomainEventSubscriber<Event>[];
  /** After the commit (the realtime bus): they see the committed rows; one that throws is reported to `onAfterCommitError`, the change stands. */
  afterCommit?: readonly AfterCommitSubscriber<Event>[];
  onAfterCommitError?: (error: unknown, event: Event) => void;
}

/**
 * Side effects of a change (webhooks, inbox notifications, the realtime bus …), raised by the use
 * case inside the change's transaction, so the use case imports none of them. In-transaction
 * subscribers run at once in that transaction; after-commit subscribers run once it committed, in
 * the order the events were raised. An event raised on the store itself (a change of one statement,
 * committed by now) runs both kinds at once.
 */
export interface DomainEvents<Event> {
  raise(tx: Queryable, event: Event): Promise<void>;
}

/** The dispatcher of one process, its subscribers given by the composition root. */
export function createDomainEvents<Event>(subscribers: readonly DomainEventSubscriber<Event>[] | DomainEventSubscribers<Event>): DomainEvents<Event> {
  const { inTransaction, afterCommit = [], onAfterCommitError = () => undefined } = Array.isArray(subscribers)
    ? { inTransaction: subscribers as readonly DomainEventSubscriber<Event>[] }
    : (subscribers as DomainEventSubscribers<Event>);
  const runAfterCommit = async (event: Event): Promise<void> => {
    for (const subscriber of afterCommit) {
      try {
        await subscriber(event);
      } catch (error) {
        onAfterCommitError(error, event);
      }
    }
  };
  return {
    async raise(tx, event) {
      for (const subscriber of inTransaction) await subscriber(tx, event);
      if (afterCommit.length === 0) return;
      if (isTransaction(tx)) tx.afterCommit(() => runAfterCommit(event));
      else await runAfterCommit(event);
    },
  };
}
