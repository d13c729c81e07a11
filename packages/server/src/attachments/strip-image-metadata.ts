import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import type { AttachmentMediaType } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";

const loadSharp = loadOnFirstUse(() => import("sharp"));

/** The most pixels an image may decode to (a 10 MB file can claim billions: a decompression bomb). */
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * An image re-encoded in its own format by sharp (libvips), without any of its metadata: EXIF
 * (the camera, the time, the GPS position), XMP, IPTC and comments are dropped, and so is an ICC
 * profile once the pixels are converted to sRGB (sharp keeps none of them unless asked). A JPEG
 * is turned upright by its EXIF orientation first, since that tag goes. GIF and WebP keep their
 * frames. Only the pixels survive, so no script or second file can hide in a chunk. An image
 * sharp cannot decode (truncated, or not what its header says) is a 415.
 */
export async function stripImageMetadata(bytes: Uint8Array, mediaType: Exclude<AttachmentMediaType, "application/pdf">): Promise<Buffer> {
  const animated = mediaType === "image/gif" || mediaType === "image/webp";
  const { default: sharp } = await loadSharp();
  try {
    const image = sharp(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
    switch (mediaType) {
      case "image/jpeg":
        return await image.rotate().jpeg({ quality: 88, mozjpeg: true }).toBuffer();
      case "image/png":
        return await image.png({ compressionLevel: 9 }).toBuffer();
      case "image/webp":
        return await image.webp({ quality: 88 }).toBuffer();
      case "image/gif":
        return await image.gif().toBuffer();
    }
  } catch (error) {
    throw new AppError("unsupported_media_type", `The image could not be read: ${error instanceof Error ? error.message.split("\n")[0] : "not a valid image"}.`);
  }
}
