import type { LanguagePack } from "../language/language-pack.js";
import type { MailBlock, MailContent } from "./mail-content.js";

/** A quoted message is cut here: a mail points to the conversation, it does not replace it. */
const QUOTE_LIMIT = 2_000;
const cut = (text: string) => (text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT - 1)}…` : text);

const contentOf = (pack: LanguagePack, subject: string, blocks: MailBlock[]): MailContent => ({
  language: pack.code,
  direction: pack.mail.direction,
  subject,
  blocks,
});

/** To an operator: a visitor asks for a person and no operator is online. */
export function personRequestedMail(
  pack: LanguagePack,
  about: { agentName: string; reason: string | null; lastMessage: string | null; pageUrl: string | null; link: string },
): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.personRequestedSubject(about.agentName), [
    { kind: "paragraph", text: words.personRequestedIntro(about.agentName) },
    ...(about.reason ? [{ kind: "field", label: words.reasonLabel, text: cut(about.reason) } as const] : []),
    ...(about.lastMessage ? [{ kind: "field", label: words.lastMessageLabel, text: cut(about.lastMessage) } as const] : []),
    ...(about.pageUrl ? [{ kind: "field", label: words.pageLabel, text: about.pageUrl } as const] : []),
    { kind: "link", label: words.openConversation, url: about.link },
    { kind: "footer", text: words.operatorFooter },
  ]);
}

/** To the operator who has the conversation: the visitor's messages they have not read. */
export function unseenVisitorMessageMail(pack: LanguagePack, about: { agentName: string; messages: string[]; pageUrl: string | null; link: string }): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.unseenVisitorMessageSubject(about.agentName), [
    { kind: "paragraph", text: words.unseenVisitorMessageIntro(about.agentName) },
    ...about.messages.map((text) => ({ kind: "field", label: words.lastMessageLabel, text: cut(text) }) as const),
    ...(about.pageUrl ? [{ kind: "field", label: words.pageLabel, text: about.pageUrl } as const] : []),
    { kind: "link", label: words.openConversation, url: about.link },
    { kind: "footer", text: words.operatorFooter },
  ]);
}

/** An operator's hourly digest: each gathered alert with its link. */
export function digestMail(pack: LanguagePack, items: { summary: string; pageUrl: string | null; link: string }[]): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.digestSubject(items.length), [
    { kind: "paragraph", text: words.digestIntro },
    ...items.flatMap((item): MailBlock[] => [
      { kind: "paragraph", text: cut(item.summary) },
      ...(item.pageUrl ? [{ kind: "field", label: words.pageLabel, text: item.pageUrl } as const] : []),
      { kind: "link", label: words.openConversation, url: item.link },
    ]),
    { kind: "footer", text: words.operatorFooter },
  ]);
}

/** To a visitor who left: the operator's replies they have not seen, and the link that reopens the conversation. */
export function operatorReplyMail(pack: LanguagePack, about: { agentName: string; operatorName: string; replies: string[]; resumeUrl: string | null }): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.replySubject(about.operatorName, about.agentName), [
    { kind: "paragraph", text: words.replyIntro(about.operatorName) },
    ...about.replies.map((text) => ({ kind: "quote", who: about.operatorName, text: cut(text) }) as const),
    ...(about.resumeUrl ? [{ kind: "link", label: words.continueConversation, url: about.resumeUrl } as const] : []),
    { kind: "footer", text: words.visitorFooter },
  ]);
}

/** To a visitor: their conversation, line by line. */
export function transcriptMail(pack: LanguagePack, about: { agentName: string; lines: { who: string; text: string }[] }): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.transcriptSubject(about.agentName), [
    { kind: "paragraph", text: words.transcriptIntro(about.agentName) },
    ...about.lines.map((line) => ({ kind: "quote", who: line.who, text: line.text }) as const),
    { kind: "footer", text: words.visitorFooter },
  ]);
}

/** To an admin: answer tests of an agent that passed in the previous run fail now, each question with why. */
export function answerTestsRegressedMail(pack: LanguagePack, about: { agentName: string; tests: { question: string; reason: string }[]; link: string }): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.answerTestsRegressedSubject(about.agentName, about.tests.length), [
    { kind: "paragraph", text: words.answerTestsRegressedIntro(about.agentName) },
    ...about.tests.slice(0, 20).map((test) => ({ kind: "field", label: cut(test.question), text: test.reason }) as const),
    { kind: "link", label: words.openAnswerTests, url: about.link },
    { kind: "footer", text: words.operatorFooter },
  ]);
}

/** To an operator a colleague mentioned in an internal note: the note, and the conversation's link. */
export function mentionedInNoteMail(pack: LanguagePack, about: { authorName: string; agentName: string; note: string; link: string }): MailContent {
  const words = pack.mail;
  return contentOf(pack, words.mentionedSubject(about.authorName), [
    { kind: "paragraph", text: words.mentionedIntro(about.authorName, about.agentName) },
    { kind: "quote", who: about.authorName, text: cut(about.note) },
    { kind: "link", label: words.openConversation, url: about.link },
    { kind: "footer", text: words.operatorFooter },
  ]);
}
