const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const DEFAULT_PRIMARY = "#1f2937";
const LIGHT_TEXT = "#ffffff";
// Black, not a softer near-black: with white or black every colour reaches WCAG AA (4.5:1) on one of them.
const DARK_TEXT = "#000000";

function channels(hex: string): [number, number, number] {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join("") : hex.slice(1);
  return [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16) / 255) as [number, number, number];
}

/** WCAG relative luminance of a #rgb or #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The agent's primary colour (when it is a hex colour: it goes into a stylesheet, so nothing else
 * is accepted) and the text colour, white or black, that contrasts most with it.
 */
export function themeColours(primary: string): { primary: string; onPrimary: string } {
  const colour = HEX_COLOUR.test(primary.trim()) ? primary.trim() : DEFAULT_PRIMARY;
  const onPrimary = contrastRatio(colour, LIGHT_TEXT) >= contrastRatio(colour, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
  return { primary: colour, onPrimary };
}

/** The stylesheet rule that applies the colours to the widget. */
export function themeCss(primary: string): string {
  const colours = themeColours(primary);
  return `.fd{--fd-primary:${colours.primary};--fd-on-primary:${colours.onPrimary}}`;
}
