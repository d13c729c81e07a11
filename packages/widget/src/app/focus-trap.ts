const FOCUSABLE = 'a[href],button:not([disabled]),textarea:not([disabled]),input:not([disabled]),select:not([disabled]),[tabindex]:not([tabindex="-1"])';

/**
 * Keeps the keyboard inside the open widget: Tab from its last control goes to its first (the
 * panel's controls, then the launcher when it shows), Shift+Tab from the first to the last. Escape
 * (handled by mount) is the way out, and gives focus back to the launcher.
 */
export function keepFocusInside(root: ShadowRoot, launcher: HTMLElement, isOpen: () => boolean): void {
  root.addEventListener("keydown", (event) => {
    const key = event as KeyboardEvent;
    const panel = root.querySelector(".panel");
    if (key.key !== "Tab" || key.altKey || key.ctrlKey || key.metaKey || !isOpen() || !panel) return;
    const stops = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE), launcher].filter((element) => element.getClientRects().length > 0);
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (!first || !last) return;
    const active = root.activeElement;
    const wrapTo = !stops.includes(active as HTMLElement) ? first : key.shiftKey ? (active === first ? last : null) : active === last ? first : null;
    if (!wrapTo) return;
    key.preventDefault();
    wrapTo.focus();
  });
}
