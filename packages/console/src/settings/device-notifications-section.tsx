import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { api, dataOf, describeError } from "../api/client.js";
import { devicePushState, disableDevicePush, enableDevicePush, type DevicePushState } from "../push/device-push.js";
import { formatTime } from "./format-time.js";

const DEVICE_STATE_KEY = ["settings", "push", "this-device"] as const;
const DEVICES_KEY = ["settings", "push", "devices"] as const;

const STATUS: Record<DevicePushState, string> = {
  unsupported: "This browser cannot show notifications from the console (it needs service workers and Web Push).",
  denied: "Notifications are blocked for this site. Allow them in the browser's site settings, then turn them on here.",
  off: "Off: this device is not told when a visitor asks for a person while the console is closed.",
  on: "On: this device shows a notification when a visitor asks for a person, even with the console closed.",
};

/** Notifications on this device: Web Push alerts of the signed-in operator, turned on or off per browser, and the operator's devices. */
export function DeviceNotificationsSection() {
  const statusId = useId();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: DEVICE_STATE_KEY, queryFn: devicePushState });
  const devices = useQuery({ queryKey: DEVICES_KEY, queryFn: async () => (await dataOf(api.GET("/api/v1/console/push/devices"))).data });
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: DEVICE_STATE_KEY }), queryClient.invalidateQueries({ queryKey: DEVICES_KEY })]);
  const toggle = useMutation({
    mutationFn: (turnOn: boolean) => (turnOn ? enableDevicePush() : disableDevicePush()),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => dataOf(api.DELETE("/api/v1/console/push/devices/{id}", { params: { path: { id } } })),
    onSettled: refresh,
  });
  const current = state.data;
  const on = current === "on";
  return (
    <section className="settings-card device-notifications" aria-labelledby="device-notifications-title">
      <h2 id="device-notifications-title">Notifications on this device</h2>
      <p id={statusId} role="status" className="small">
        {toggle.isPending ? (on ? "Turning off…" : "Turning on… (the browser may ask whether to allow notifications)") : current ? STATUS[current] : "Checking this browser…"}
      </p>
      {(toggle.isError || state.isError) && (
        <p className="error" role="alert">
          {describeError(toggle.error ?? state.error)}
        </p>
      )}
      {current && current !== "unsupported" && (
        <button type="button" aria-describedby={statusId} aria-pressed={on} disabled={toggle.isPending || current === "denied"} onClick={() => toggle.mutate(!on)}>
          {on ? "Turn off notifications on this device" : "Turn on notifications on this device"}
        </button>
      )}
      {devices.data && devices.data.length > 0 && (
        <table className="settings-table">
          <caption>Your devices with notifications</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Added</th>
              <th scope="col">Last notification delivered</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {devices.data.map((device) => (
              <tr key={device.id}>
                <th scope="row">{device.device_label || "A browser"}</th>
                <td>{formatTime(device.created_at)}</td>
                <td>{device.last_success_at ? formatTime(device.last_success_at) : device.last_failure ? `Failing: ${device.last_failure}` : "None yet"}</td>
                <td className="row-actions">
                  <button type="button" className="danger-outline" disabled={remove.isPending} onClick={() => remove.mutate(device.id)} aria-label={`Remove ${device.device_label || "this browser"}, added ${formatTime(device.created_at)}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
