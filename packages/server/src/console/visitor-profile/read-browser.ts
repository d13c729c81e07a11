import Bowser from "bowser";
import { visitorDeviceTypes, type VisitorProfile } from "@frontdesk/contracts";

type Browser = NonNullable<VisitorProfile["browser"]>;

const isDeviceType = (value: string | undefined): value is NonNullable<Browser["device"]> => (visitorDeviceTypes as readonly (string | undefined)[]).includes(value);

/**
 * A user agent read as people say it: the browser and its major version, the system and the kind
 * of device (bowser, a maintained parser, on the server: the widget sends nothing more). Whatever
 * it cannot tell is null; the raw header stays beside it.
 */
export function readBrowser(userAgent: string): Browser {
  // bowser refuses an empty header; init never stores one, but a header of spaces reads as nothing.
  if (userAgent.trim() === "") return { name: null, version: null, os: null, device: null, user_agent: userAgent };
  const parsed = Bowser.parse(userAgent);
  const systemVersion = parsed.os.versionName ?? parsed.os.version;
  return {
    name: parsed.browser.name || null,
    version: parsed.browser.version?.split(".")[0] || null,
    os: parsed.os.name ? [parsed.os.name, systemVersion].filter(Boolean).join(" ") : null,
    device: isDeviceType(parsed.platform.type) ? parsed.platform.type : null,
    user_agent: userAgent,
  };
}
