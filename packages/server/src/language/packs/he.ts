import type { LanguagePack } from "../language-pack.js";

/** Hebrew writes its article and prepositions onto the word ("ה", "ל"): word ends are letters, not `\b`, which knows only Latin letters. */
const END = "(?!\\p{L})";
const START = "(?<!\\p{L})";

export const he: LanguagePack = {
  code: "he",
  // Postgres has no Hebrew configuration.
  textSearchConfig: "simple",
  stopWords: [
    "של", "את", "על", "עם", "אני", "אתה", "הוא", "היא", "אנחנו", "אתם", "הם", "הן", "מה", "איך", "מתי", "איפה", "למה", "כמה", "זה", "זו",
    "זאת", "יש", "אין", "לא", "כן", "גם", "או", "אם", "כי", "אבל", "רק", "כל", "אפשר", "לי", "לך", "לכם", "שלכם", "שלי", "האם", "יותר",
    "הכי", "עוד", "כבר", "מאוד", "אצל", "אצלכם", "בבקשה",
  ],
  minContentWordLength: 2,
  smallTalk: {
    phrases: {
      greeting: ["שלום", "היי", "הי", "אהלן", "בוקר טוב", "צהריים טובים", "ערב טוב", "שלום לך"],
      thanks: ["תודה", "תודה רבה", "תודה לך", "תודה רבה לך", "אלף תודה"],
      goodbye: ["להתראות", "ביי", "יום טוב", "לילה טוב", "המשך יום טוב"],
      acknowledgement: ["אוקיי", "אוקי", "בסדר", "כן", "לא", "מעולה", "מצוין", "הבנתי", "לא תודה", "סבבה"],
    },
    replies: {
      greeting: "שלום! איך אפשר לעזור לך היום?",
      thanks: "בשמחה! יש עוד משהו שאפשר לעזור לך בו?",
      goodbye: "להתראות, ותודה שביקרת!",
      acknowledgement: "יש עוד משהו שאפשר לעזור לך בו?",
    },
    addressees: [],
  },
  personRequest: {
    articles: [],
    adjectives: [],
    nouns: ["(?:ה)?(?:נציג|נציגה|נציג שירות|נציגת שירות|סוכן|סוכנת|מוקדן|מוקדנית|בן אדם|בנאדם|מישהו|מישהי)"],
    patterns: (person) => [
      // "אפשר לדבר עם נציג?", "תחבר אותי לנציג"
      new RegExp(`${START}(?:לדבר|לשוחח|לצ'טט|דבר|תחבר אותי|חבר אותי|להתחבר)(?:\\s+(?:עם|אל)\\s+|\\s+ל)${person}${END}`, "u"),
      // "נציג בבקשה", "נציג אנושי"
      new RegExp(`^\\s*(?:(?:אני רוצה|אני צריך|אני צריכה|אפשר|רוצה)\\s+)?${person}(?:\\s+(?:אמיתי|אמיתית|אנושי|אנושית))?(?:\\s+בבקשה)?\\s*[.!?]*\\s*$`, "u"),
      new RegExp(`${START}(?:נציג|נציגה|אדם|בן אדם)\\s+(?:אמיתי|אמיתית|אנושי|אנושית)${END}`, "u"),
    ],
  },
  yes: ["כן", "כן בבקשה", "כן תודה", "בטח", "בטח בבקשה", "אשמח", "בסדר", "אוקיי", "אוקי", "סבבה", "יאללה"],
  unsureReplies: {
    nothing_found: "אני לא בטוח לגבי זה — לא מצאתי את זה באתר הזה. האם תרצה שאחבר אותך לנציג?",
    doubtful_match: "אני לא בטוח שזה עונה על שאלתך. האם תרצה שאחבר אותך לנציג?",
  },
  pageReplies: {
    quoting: (page) => `מתוך הדף שלנו "${page}":`,
    mayHelp: (pages) => (pages.length === 1 ? `אולי הדף הזה יעזור: ${pages.join("")}` : `אולי הדפים האלה יעזרו: ${pages.join("; ")}`),
  },
  backReference: new RegExp(`^(?:זה|זו|זאת|הוא|היא|הם|הן|אבל|אך|לכן|אז|בנוסף|במקרה כזה|במקרה זה)${END}`, "u"),
  continuation: new RegExp(`^\\s*(?:ומה לגבי|מה לגבי|ומה עם|מה עם|ו|ואם|ואיך|ומתי|וכמה|והאם|אבל|וגם|גם)${END}`, "u"),
  pointingBack: new RegExp(`${START}(?:זה|זו|זאת|הוא|היא|הם|הן)${END}`, "u"),
  detection: { script: /\p{Script=Hebrew}/u, functionWords: [], helpDeskWords: [], spelling: null, letters: null },
  mail: {
    direction: "rtl",
    personRequestedSubject: (agent) => `מבקר מבקש לדבר עם נציג (${agent})`,
    personRequestedIntro: (agent) => `מבקר שמדבר עם ${agent} ביקש נציג, ואף נציג אינו מחובר.`,
    unseenVisitorMessageSubject: (agent) => `מבקר מחכה לתשובתך (${agent})`,
    unseenVisitorMessageIntro: (agent) => `מבקר בשיחה שאתה מטפל בה עם ${agent} כתב לך, ועוד לא קראת.`,
    digestSubject: (count) => (count === 1 ? "שיחה אחת זקוקה לך" : `${count} שיחות זקוקות לך`),
    digestIntro: "בזמן שלא היית, השיחות האלה היו זקוקות לנציג:",
    reasonLabel: "סיבה",
    lastMessageLabel: "הודעה אחרונה",
    pageLabel: "עמוד",
    openConversation: "פתח את השיחה",
    operatorFooter: "הודעות אלה נשלחות אליך כנציג ב-Frontdesk. בחר כל התראה, סיכום שעתי או כלום בפרופיל שלך במסוף.",
    replySubject: (operator, agent) => `${operator} ענה לך (${agent})`,
    replyIntro: (operator) => `${operator} ענה לך בזמן שלא היית:`,
    continueConversation: "המשך את השיחה",
    transcriptSubject: (agent) => `השיחה שלך עם ${agent}`,
    transcriptIntro: (agent) => `הנה תמליל השיחה שלך עם ${agent}.`,
    you: "אתה",
    visitorFooter: "הודעה זו נשלחה אליך כי השארת את כתובתך בצ׳אט. אם זה לא היית אתה, התעלם ממנה.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `בדיקת תשובה של ${agent} נכשלת כעת` : `${count} בדיקות תשובה של ${agent} נכשלות כעת`),
    answerTestsRegressedIntro: (agent) => `${agent} ענה נכון על השאלות האלה בהרצה הקודמת של בדיקות התשובה, וכעת כבר לא:`,
    openAnswerTests: "פתיחת בדיקות התשובה",
    mentionedSubject: (author) => `${author} הזכיר/ה אותך בהערה`,
    mentionedIntro: (author, agent) => `${author} הזכיר/ה אותך בהערה פנימית בשיחה עם ${agent}:`,
  },
};
