/**
 * A visitor asked for a person: a short two-tone chime (Web Audio, no file to fetch) and, when the
 * operator allowed it, a browser notification that opens the conversation when clicked.
 */
let audio: AudioContext | null = null;

function chime(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.16, 1320],
    ] as const) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.32);
    }
  } catch {
    // No audio device, or the browser refuses sound before a gesture: the inbox still shows it.
  }
}

export function alertOperator(request: { conversation_id: string; reason: string | null }, open: (conversationId: string) => void): void {
  chime();
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  const notification = new Notification("A visitor asks for a person", {
    body: request.reason ?? "Open the conversation in the Frontdesk inbox.",
    tag: `human-request-${request.conversation_id}`,
  });
  notification.onclick = () => {
    window.focus();
    open(request.conversation_id);
    notification.close();
  };
}

/** Whether the browser could show notifications if the operator allowed them. */
export function canAskForNotifications(): boolean {
  return "Notification" in window && Notification.permission === "default";
}
