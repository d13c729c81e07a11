import { adoptStylesheet } from "../shared/adopt-stylesheet.js";
import type { EmbedOptions } from "../shared/embed-context.js";
import { pickLanguage } from "../shared/pick-language.js";
import { LAUNCHER_LABELS } from "./launcher-labels.js";
import { LAUNCHER_CSS } from "./launcher-styles.js";

const SVG = "http://www.w3.org/2000/svg";
const CHAT_ICON = "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z";
const CLOSE_ICON = "M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z";

function icon(path: string, className: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", className);
  const shape = document.createElementNS(SVG, "path");
  shape.setAttribute("d", path);
  svg.append(shape);
  return svg;
}

export interface PaintedLauncher {
  host: HTMLElement;
  root: ShadowRoot;
  launcher: HTMLButtonElement;
  panelSlot: HTMLElement;
}

/**
 * Adds the widget's one element to the page (a <frontdesk-widget> with an open shadow root) and
 * paints the launcher inside it, before anything else loads. Everything is built with DOM calls
 * (no HTML string is parsed), so it also runs under Trusted Types.
 */
export function paintLauncher(options: EmbedOptions): PaintedLauncher {
  const host = document.createElement("frontdesk-widget");
  const root = host.attachShadow({ mode: "open" });
  adoptStylesheet(root, LAUNCHER_CSS);
  const frame = document.createElement("div");
  frame.className = `fd ${options.position}`;
  // Until init names the agent's default language: data-language, else the browser's.
  frame.lang = pickLanguage([options.language, ...navigator.languages], Object.keys(LAUNCHER_LABELS));
  const panelSlot = document.createElement("div");
  const launcher = document.createElement("button");
  launcher.type = "button";
  launcher.className = "launcher";
  launcher.setAttribute("aria-label", LAUNCHER_LABELS[frame.lang] ?? "Open chat");
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-haspopup", "dialog");
  launcher.append(icon(CHAT_ICON, "fd-chat"), icon(CLOSE_ICON, "fd-close"));
  frame.append(panelSlot, launcher);
  root.append(frame);
  // A script in <head> may run before <body> exists: the element joins it as soon as it does.
  if (document.body) document.body.append(host);
  else document.addEventListener("DOMContentLoaded", () => document.body.append(host), { once: true });
  return { host, root, launcher, panelSlot };
}
