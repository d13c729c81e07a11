import type { LanguagePack } from "../language-pack.js";

/** Arabic writes its conjunctions and prepositions onto the word ("و", "ب"): word ends are letters, not `\b`, which knows only Latin letters. */
const END = "(?!\\p{L})";
const START = "(?<!\\p{L})";

export const ar: LanguagePack = {
  code: "ar",
  textSearchConfig: "arabic",
  stopWords: [
    "في", "من", "على", "إلى", "الى", "عن", "هل", "ما", "ماذا", "كيف", "متى", "أين", "اين", "هذا", "هذه", "ذلك", "تلك", "أن", "ان", "إن",
    "لا", "نعم", "مع", "أو", "او", "و", "ثم", "كم", "التي", "الذي", "الذين", "هو", "هي", "أنا", "انا", "أنت", "انت", "نحن", "هم",
    "لديكم", "لدي", "لديك", "عندكم", "عندي", "يمكن", "يمكنني", "ممكن", "هناك", "كان", "يكون", "لكم", "لي", "به", "بها", "فيه", "فيها",
    "كل", "أي", "اي", "أريد", "اريد", "فضلك", "سمحت", "لو",
  ],
  minContentWordLength: 2,
  smallTalk: {
    phrases: {
      greeting: ["مرحبا", "اهلا", "أهلا", "أهلا وسهلا", "اهلا وسهلا", "السلام عليكم", "صباح الخير", "مساء الخير", "هلا"],
      thanks: ["شكرا", "شكرا جزيلا", "شكرا لك", "شكرا لكم", "ألف شكر", "الف شكر", "مشكور"],
      goodbye: ["مع السلامة", "وداعا", "إلى اللقاء", "الى اللقاء", "يوما سعيدا"],
      acknowledgement: ["حسنا", "تمام", "طيب", "نعم", "لا", "ممتاز", "رائع", "فهمت", "لا شكرا", "اوكي", "أوكي", "موافق"],
    },
    replies: {
      greeting: "مرحباً! كيف يمكنني مساعدتك اليوم؟",
      thanks: "على الرحب والسعة! هل هناك أي شيء آخر يمكنني مساعدتك به؟",
      goodbye: "مع السلامة، وشكراً لزيارتك!",
      acknowledgement: "هل هناك أي شيء آخر يمكنني مساعدتك به؟",
    },
    addressees: [],
  },
  personRequest: {
    articles: [],
    adjectives: [],
    nouns: ["(?:ال)?(?:موظف|موظفة|شخص|إنسان|انسان|ممثل|مندوب|وكيل)", "(?:أحد|احد) (?:الموظفين|من الفريق)", "خدمة العملاء"],
    patterns: (person) => [
      // "أريد التحدث مع موظف", "وصلني بشخص"
      new RegExp(`${START}(?:التحدث|التكلم|الحديث|التواصل|أتحدث|اتحدث|أتكلم|اتكلم|تحدث|تكلم|وصلني|أوصلني|اوصلني)(?:\\s+(?:مع|إلى|الى)\\s+|\\s+ب)${person}${END}`, "u"),
      // "موظف من فضلك", "شخص حقيقي"
      new RegExp(`^\\s*(?:(?:أريد|اريد|أود|اود|أحتاج|احتاج|ممكن)\\s+)?${person}(?:\\s+(?:حقيقي|حقيقية|بشري|بشرية))?(?:\\s+(?:من فضلك|لو سمحت))?\\s*[.!?؟]*\\s*$`, "u"),
      new RegExp(`${START}(?:شخص|موظف|إنسان|انسان)\\s+(?:حقيقي|حقيقية|بشري|بشرية)${END}`, "u"),
    ],
  },
  yes: ["نعم", "أجل", "اجل", "نعم من فضلك", "نعم لو سمحت", "نعم شكرا", "بالتأكيد", "طبعا", "حسنا", "تمام", "طيب", "موافق"],
  unsureReplies: {
    nothing_found: "لست متأكداً من ذلك — لم أجده على هذا الموقع. هل تريد أن أوصلك بشخص من الفريق؟",
    doubtful_match: "لست متأكداً من أنها تجيب عن سؤالك. هل تريد أن أوصلك بشخص من الفريق؟",
  },
  pageReplies: {
    quoting: (page) => `من صفحتنا «${page}»:`,
    mayHelp: (pages) => (pages.length === 1 ? `قد تفيدك هذه الصفحة: ${pages.join("")}` : `قد تفيدك هذه الصفحات: ${pages.join("؛ ")}`),
  },
  backReference: new RegExp(`^(?:هذا|هذه|ذلك|تلك|هو|هي|هم|لكن|ولكن|لذلك|لذا|ثم|أيضا|كذلك|في هذه الحالة|في تلك الحالة)${END}`, "u"),
  continuation: new RegExp(`^\\s*(?:وماذا عن|ماذا عن|وماذا بخصوص|و|وهل|وكم|وما|ومتى|وأين|واين|وكيف|لكن|ولكن|أيضا|ايضا)${END}`, "u"),
  pointingBack: new RegExp(`${START}(?:هذا|هذه|ذلك|تلك|هو|هي|هم)${END}`, "u"),
  detection: { script: /\p{Script=Arabic}/u, functionWords: [], helpDeskWords: [], spelling: null, letters: null },
  mail: {
    direction: "rtl",
    personRequestedSubject: (agent) => `زائر يطلب التحدث إلى شخص (${agent})`,
    personRequestedIntro: (agent) => `طلب زائر يتحدث إلى ${agent} التحدث إلى شخص، ولا يوجد أي موظف متصل.`,
    unseenVisitorMessageSubject: (agent) => `زائر ينتظر ردك (${agent})`,
    unseenVisitorMessageIntro: (agent) => `كتب إليك زائر في محادثة تتولاها مع ${agent}، ولم تقرأها بعد.`,
    digestSubject: (count) => (count === 1 ? "محادثة واحدة تحتاج إليك" : `${count} محادثات تحتاج إليك`),
    digestIntro: "أثناء غيابك، احتاجت هذه المحادثات إلى شخص:",
    reasonLabel: "السبب",
    lastMessageLabel: "آخر رسالة",
    pageLabel: "الصفحة",
    openConversation: "افتح المحادثة",
    operatorFooter: "تصلك هذه الرسائل بصفتك موظفًا في Frontdesk. اختر كل تنبيه أو ملخصًا كل ساعة أو لا شيء من ملفك الشخصي في لوحة التحكم.",
    replySubject: (operator, agent) => `ردّ عليك ${operator} (${agent})`,
    replyIntro: (operator) => `ردّ عليك ${operator} أثناء غيابك:`,
    continueConversation: "تابع المحادثة",
    transcriptSubject: (agent) => `محادثتك مع ${agent}`,
    transcriptIntro: (agent) => `إليك نص محادثتك مع ${agent}.`,
    you: "أنت",
    visitorFooter: "تصلك هذه الرسالة لأنك تركت عنوانك في الدردشة. إن لم تكن أنت، فتجاهلها.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `اختبار إجابة لدى ${agent} يفشل الآن` : `${count} اختبارات إجابة لدى ${agent} تفشل الآن`),
    answerTestsRegressedIntro: (agent) => `أجاب ${agent} عن هذه الأسئلة إجابة صحيحة في التشغيل السابق لاختبارات الإجابة، ولم يعد كذلك الآن:`,
    openAnswerTests: "افتح اختبارات الإجابة",
    mentionedSubject: (author) => `ذكرك ${author} في ملاحظة`,
    mentionedIntro: (author, agent) => `ذكرك ${author} في ملاحظة داخلية في محادثة مع ${agent}:`,
  },
};
