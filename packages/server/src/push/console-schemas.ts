import { consoleIdSchema, pushDeviceSchema, pushSubscriptionBodySchema } from "@frontdesk/contracts";
import { z } from "zod";
import { consoleErrorResponses, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console/console-responses.js";
import { componentSchemas } from "../openapi/component-schemas.js";
import { documentMembers } from "../openapi/document-members.js";
import { errorResponse, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

documentMembers(pushDeviceSchema);
componentSchemas.add(pushDeviceSchema, { id: "PushDevice", description: "A device (browser) of the signed-in operator that receives Web Push alerts: never its keys." });

export const vapidKeyResponseSchema = z.object({
  data: z.object({
    public_key: z.string().describe("The service's VAPID public key (P-256, uncompressed, base64url): `applicationServerKey` of `pushManager.subscribe`."),
  }),
});
export const pushDeviceListResponseSchema = z.object({ data: z.array(pushDeviceSchema) });
export const pushDeviceResponseSchema = z.object({ data: pushDeviceSchema });
export const pushDeviceParamsSchema = z.object({ id: consoleIdSchema });

const tags = ["console"];
const notFound = errorResponse("`push_subscription_not_found`: no device with this id has alerts for the signed-in operator.");
const refused =
  "`validation_failed`: a bad member (`keys.p256dh` must be a 65-byte P-256 public key, `keys.auth` 16 bytes, both base64url), more than 20 devices, " +
  "or an `endpoint` that is not https, carries credentials, does not resolve, or resolves to an address the guard refuses (loopback, private, " +
  "link-local, metadata … unless FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS allows them, and then http too).";

export const vapidKeyRouteSchema = {
  tags,
  operationId: "getConsolePushKey",
  summary: "Get the service's VAPID public key",
  description: "The key a browser subscribes with (`pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })`). It stays the same across restarts.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The public key.", vapidKeyResponseSchema), ...consoleReadErrors },
};

export const listPushDevicesRouteSchema = {
  tags,
  operationId: "listConsolePushDevices",
  summary: "List the operator's devices with alerts",
  description: "The signed-in operator's subscribed devices, oldest first, with when a push service last accepted an alert for each.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The operator's devices.", pushDeviceListResponseSchema), ...consoleReadErrors },
};

export const subscribePushDeviceRouteSchema = {
  tags,
  operationId: "subscribeConsolePushDevice",
  summary: "Receive alerts on this device",
  description:
    "Stores the browser's push subscription (`PushSubscription.toJSON()` and a label) for the signed-in operator: when a visitor of the workspace " +
    "asks for a person, the device shows a system notification, even with the console closed. The same endpoint again replaces its keys (200). " +
    "Signing out everywhere, a new password or the operator's removal deletes every device; a push service answering 404 or 410 deletes one.",
  security: consoleSecurity,
  body: pushSubscriptionBodySchema,
  response: {
    200: jsonResponse("The device, already subscribed: its keys replaced.", pushDeviceResponseSchema),
    201: jsonResponse("The device, subscribed.", pushDeviceResponseSchema),
    ...consoleWriteErrors,
    422: errorResponse(refused),
  },
};

export const unsubscribePushDeviceRouteSchema = {
  tags,
  operationId: "unsubscribeConsolePushDevice",
  summary: "Stop alerts on a device",
  description: "Deletes one of the signed-in operator's devices; alerts already queued for it are not sent.",
  security: consoleSecurity,
  params: pushDeviceParamsSchema,
  response: {
    204: noContentResponse("Deleted."),
    401: consoleErrorResponses.unauthenticated,
    403: consoleErrorResponses.csrf,
    404: notFound,
    422: consoleWriteErrors[422],
    500: consoleReadErrors[500],
  },
};
