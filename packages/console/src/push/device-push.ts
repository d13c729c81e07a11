import { api, ApiError, dataOf } from "../api/client.js";

/** Where the console's service worker is served, and what it controls. */
export const PUSH_WORKER_URL = "/console/push-worker.js";
export const PUSH_WORKER_SCOPE = "/console/";
const DEVICE_ID_KEY = "frontdesk.push-device-id";

/** What this browser can do about alerts. */
export type DevicePushState = "unsupported" | "denied" | "off" | "on";

export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** The VAPID key as `applicationServerKey` wants it. */
function keyBytes(base64Url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64Url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64Url.length / 4) * 4, "="));
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

/** "Chrome on Linux": enough for an operator to tell their devices apart. */
export function deviceLabel(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrome\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Mac OS X/.test(userAgent) ? "macOS" : /Windows/.test(userAgent) ? "Windows" : /Linux/.test(userAgent) ? "Linux" : "another system";
  return `${browser} on ${system}`;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(PUSH_WORKER_SCOPE);
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Whether this browser receives the operator's alerts now. */
export async function devicePushState(): Promise<DevicePushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const subscription = await currentSubscription();
  return subscription && localStorage.getItem(DEVICE_ID_KEY) ? "on" : "off";
}

/**
 * Turns alerts on for this browser: asks the person for permission (this must follow their
 * click), registers the service worker, subscribes with the service's VAPID key and stores the
 * subscription for the signed-in operator.
 */
export async function enableDevicePush(): Promise<DevicePushState> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") return "denied";
  if (permission !== "granted") return "off";
  const registration = await navigator.serviceWorker.register(PUSH_WORKER_URL, { scope: PUSH_WORKER_SCOPE, type: "classic" });
  await navigator.serviceWorker.ready;
  const { public_key } = (await dataOf(api.GET("/api/v1/console/push/key"))).data;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const json = subscription.toJSON();
  const device = await dataOf(
    api.POST("/api/v1/console/push/devices", {
      body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" }, device_label: deviceLabel() },
    }),
  );
  localStorage.setItem(DEVICE_ID_KEY, device.data.id);
  return "on";
}

/** Turns alerts off for this browser: the stored device is deleted, then the browser's subscription. */
export async function disableDevicePush(): Promise<DevicePushState> {
  const deviceId = localStorage.getItem(DEVICE_ID_KEY);
  if (deviceId) {
    try {
      await dataOf(api.DELETE("/api/v1/console/push/devices/{id}", { params: { path: { id: deviceId } } }));
    } catch (error) {
      // Removed already (from another device's list, or by signing out everywhere).
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
    localStorage.removeItem(DEVICE_ID_KEY);
  }
  await (await currentSubscription())?.unsubscribe();
  return "off";
}
