import type { PushDevice } from "@frontdesk/contracts";
import type { Database } from "../db/database.js";
import { newId } from "../db/ids.js";
import { AppError } from "../http/app-error.js";
import { countOperatorPushSubscriptions, deleteOperatorPushSubscription, upsertPushSubscription } from "./push-subscription-repository.js";
import type { PushServices } from "./push-services.js";

/** Devices per operator. */
export const MAX_PUSH_DEVICES = 20;

/** The signed-in operator a device is subscribed for. */
export interface DeviceOwner {
  id: string;
  workspaceId: string;
}

/**
 * Subscribes a browser to the operator's alerts: its endpoint must pass the address guard (https,
 * no private or loopback address unless the deployment allows them); the auth secret is sealed for
 * the row. The same browser again (its endpoint) replaces its keys and keeps its id.
 */
export async function subscribeDevice(
  context: { db: Database; push: PushServices },
  owner: DeviceOwner,
  body: { endpoint: string; keys: { p256dh: string; auth: string }; device_label: string },
): Promise<{ device: PushDevice; created: boolean }> {
  const refusal = await context.push.transport.refusal(body.endpoint);
  if (refusal) throw new AppError("validation_failed", `The push endpoint is refused: ${refusal}.`, { endpoint: [refusal] });
  const endpoint = new URL(body.endpoint).href;
  return context.db.transaction(async (tx) => {
    const saved = await upsertPushSubscription(
      tx,
      { id: newId("psh"), workspaceId: owner.workspaceId, operatorId: owner.id, endpoint, p256dh: body.keys.p256dh.replace(/=+$/, ""), deviceLabel: body.device_label },
      (id) => context.push.secrets.seal(body.keys.auth.replace(/=+$/, ""), id),
    );
    if (saved.created && (await countOperatorPushSubscriptions(tx, owner.id)) > MAX_PUSH_DEVICES) {
      throw new AppError("validation_failed", `An operator has at most ${MAX_PUSH_DEVICES} devices with alerts: remove one first.`, {
        endpoint: [`at most ${MAX_PUSH_DEVICES} devices`],
      });
    }
    return saved;
  });
}

/** Removes one of the operator's own devices; another operator's, or an unknown id, is 404. */
export async function unsubscribeDevice(db: Database, owner: DeviceOwner, id: string): Promise<void> {
  if (!(await deleteOperatorPushSubscription(db, owner.id, id))) {
    throw new AppError("push_subscription_not_found", `No device ${id} has alerts for this operator.`);
  }
}
