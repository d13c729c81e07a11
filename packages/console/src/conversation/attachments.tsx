import { useRef, useState } from "react";
import { api, dataOf, describeError, type Schemas } from "../api/client.js";
import "./attachments.css";

export type Attachment = Schemas["Attachment"];

/** What the picker offers: what the service accepts (it reads the type from the content). */
const ACCEPTED = "image/png,image/jpeg,image/webp,image/gif,application/pdf";

/** POST …/conversations/{id}/attachments: the file, stored unsent until a reply names it. */
export async function uploadAttachment(conversationId: string, file: File): Promise<Attachment> {
  const form = new FormData();
  form.append("file", file);
  const answer = await dataOf(
    api.POST("/api/v1/console/conversations/{id}/attachments", { params: { path: { id: conversationId } }, body: { file: file.name }, bodySerializer: () => form }),
  );
  return answer.data;
}

/** A message's files: an image as a thumbnail, a PDF as a named chip, each a link that opens it. */
export function AttachmentList({ attachments }: { attachments: readonly Attachment[] | undefined }) {
  if (!attachments?.length) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          <a href={attachment.url} target="_blank" rel="noreferrer noopener" className={attachment.media_type.startsWith("image/") ? "attachment-image" : "attachment-file"}>
            {attachment.media_type.startsWith("image/") ? <img src={attachment.url} alt={attachment.filename} /> : <span>{attachment.filename}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

interface PendingAttachment {
  key: number;
  name: string;
  attachment?: Attachment;
  error?: string;
}

/**
 * The reply box's files: "Attach a file" opens the picker; each file uploads at once and shows as
 * a chip (uploading, ready, or refused with the reason) with a remove button. `ready()` gives the
 * uploaded ones to send, `clear()` empties the list once they are sent.
 */
export function useReplyAttachments(conversationId: string | null) {
  const [pending, setPending] = useState<PendingAttachment[]>([]);
  const counter = useRef(0);
  const add = (files: FileList | null) => {
    if (conversationId === null) return;
    for (const file of Array.from(files ?? [])) {
      const key = ++counter.current;
      const change = (patch: Partial<PendingAttachment>) => setPending((all) => all.map((item) => (item.key === key ? { ...item, ...patch } : item)));
      setPending((all) => [...all, { key, name: file.name }]);
      uploadAttachment(conversationId, file).then(
        (attachment) => change({ attachment }),
        (failure: unknown) => change({ error: describeError(failure) }),
      );
    }
  };
  const ready = pending.flatMap((item) => (item.attachment ? [item.attachment] : []));
  const uploading = pending.some((item) => !item.attachment && !item.error);
  return {
    pending,
    /** Nowhere to upload to (no conversation given). */
    unavailable: conversationId === null,
    ready,
    uploading,
    add,
    remove: (key: number) => setPending((all) => all.filter((item) => item.key !== key)),
    clear: () => setPending([]),
  };
}

export function ReplyAttachments({ state, disabled }: { state: ReturnType<typeof useReplyAttachments>; disabled: boolean }) {
  const picker = useRef<HTMLInputElement>(null);
  return (
    <div className="reply-attachments">
      <input
        ref={picker}
        type="file"
        accept={ACCEPTED}
        multiple
        hidden
        onChange={(event) => {
          state.add(event.target.files);
          event.target.value = "";
        }}
      />
      <button type="button" disabled={disabled || state.unavailable} onClick={() => picker.current?.click()}>
        Attach a file
      </button>
      {state.pending.length > 0 && (
        <ul className="pending-attachments" aria-label="Files to send">
          {state.pending.map((item) => (
            <li key={item.key} className={item.error ? "attachment-refused" : undefined}>
              <span>{item.name}</span>
              <span className="attachment-status">{item.error ? item.error : item.attachment ? "Ready" : "Uploading…"}</span>
              <button type="button" className="link" aria-label={`Remove ${item.name}`} onClick={() => state.remove(item.key)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
