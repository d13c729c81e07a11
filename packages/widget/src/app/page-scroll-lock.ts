/** Below this width the open widget fills the screen (panel-adaptive-styles.ts says the same). */
const SMALL_SCREEN = "(max-width: 639.98px)";
const PROPERTIES = ["overflow-x", "overflow-y"] as const;

interface SavedStyle {
  element: HTMLElement;
  hadStyleAttribute: boolean;
  values: { property: string; value: string; priority: string }[];
}

/**
 * The one change the widget makes to the page outside its own element: while it is open on a small
 * screen (where it fills the screen), the page behind does not scroll (`overflow: hidden !important`
 * on <html> and <body>). On close, or when the screen grows past 640 px, the page's own inline
 * overflow comes back exactly as it was (no style attribute if it had none).
 */
export function pageScrollLock(): { sync(open: boolean): void } {
  const small = matchMedia(SMALL_SCREEN);
  let open = false;
  let saved: SavedStyle[] | null = null;

  const apply = () => {
    const lock = open && small.matches;
    if (lock && !saved) {
      saved = [document.documentElement, document.body].map((element) => ({
        element,
        hadStyleAttribute: element.hasAttribute("style"),
        values: PROPERTIES.map((property) => ({ property, value: element.style.getPropertyValue(property), priority: element.style.getPropertyPriority(property) })),
      }));
      for (const { element } of saved) for (const property of PROPERTIES) element.style.setProperty(property, "hidden", "important");
    } else if (!lock && saved) {
      for (const { element, hadStyleAttribute, values } of saved) {
        for (const { property, value, priority } of values) {
          if (value) element.style.setProperty(property, value, priority);
          else element.style.removeProperty(property);
        }
        if (!hadStyleAttribute && element.getAttribute("style") === "") element.removeAttribute("style");
      }
      saved = null;
    }
  };
  small.addEventListener("change", apply);
  return {
    sync(next) {
      open = next;
      apply();
    },
  };
}
