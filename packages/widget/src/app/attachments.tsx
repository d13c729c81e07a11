import type { Attachment } from "@frontdesk/contracts";
import type { JSX } from "preact";
import type { UiStrings } from "./ui-strings.js";

/** What the file picker offers, and what the service accepts (it reads the type from the content). */
export const ACCEPTED_FILES = "image/png,image/jpeg,image/webp,image/gif,application/pdf";

/** A file the visitor added to the composer: uploading (`progress` 0–1), uploaded (`sent`: its attachment) or refused (`failed`). */
export interface PendingFile {
  key: string;
  name: string;
  /** An image's preview (an object URL), shown while it uploads. */
  preview?: string | undefined;
  progress: number;
  sent?: Attachment;
  failed?: boolean;
}

/**
 * POST /attachments with the file as multipart/form-data, through XMLHttpRequest because fetch
 * cannot tell how much of a body is sent: `onProgress` hears the share uploaded. Resolves with the
 * stored attachment; rejects with the HTTP status (0: the network).
 */
export function uploadFile(serviceUrl: string, token: string, file: File, onProgress: (share: number) => void): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", new URL("api/v1/widget/attachments", serviceUrl));
    request.setRequestHeader("authorization", `Bearer ${token}`);
    request.upload.onprogress = (event) => onProgress(event.loaded / (event.total || 1));
    request.onload = () => (request.status == 201 ? resolve((JSON.parse(request.responseText) as { data: Attachment }).data) : reject(request.status));
    request.onerror = () => reject(0);
    const form = new FormData();
    form.append("file", file);
    request.send(form);
  });
}

/** A message's files: an image as a thumbnail, a PDF as a chip with its name, each a link that opens it. */
export function Files({ files }: { files: Attachment[] | undefined }): JSX.Element | null {
  if (!files?.length) return null;
  return (
    <ul class="chips">
      {files.map((file) => (
        <li key={file.id}>
          <a class={file.media_type[0] == "i" ? "file" : "chip"} href={file.url} target="_blank" rel="noopener nofollow">
            {file.media_type[0] == "i" ? <img src={file.url} alt={file.filename} /> : file.filename}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The composer's files: a thumbnail or a chip each, with its upload's progress and a button that removes it. */
export function PendingFiles({ files, strings, remove }: { files: PendingFile[]; strings: UiStrings; remove: (key: string) => void }): JSX.Element | null {
  if (!files.length) return null;
  return (
    <ul class="chips pending">
      {files.map((file) => (
        <li key={file.key} class="chip">
          {file.preview && !file.failed ? <img src={file.preview} alt={file.name} /> : <span>{file.name}</span>}
          {file.failed ? <span>{strings.fileRefused}</span> : !file.sent && <progress max={1} value={file.progress} aria-label={file.name} />}
          <button type="button" class="link" aria-label={strings.removeFile(file.name)} onClick={() => remove(file.key)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
