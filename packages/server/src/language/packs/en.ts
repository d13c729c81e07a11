import type { LanguagePack } from "../language-pack.js";

const NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|sixty|ninety)";
const NUMBER = `(?:\\d+(?:[.,]\\d+)?|${NUMBER_WORD}|a|an)`;
const TIME_UNIT = "(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)";

export const en: LanguagePack = {
  code: "en",
  textSearchConfig: "english",
  stopWords: (
    "a an the and or but if then so of to in on at by for with from as into onto over under about after before " +
    "is are was were be been being am do does did doing done have has had having will would shall should can could may might must " +
    "i me my mine we our ours us you your yours he him his she her hers it its they them their theirs " +
    "what which who whom whose when where why how this that these those there here " +
    "not no yes all any some each every more most other such only own same than too very just also again once " +
    "up down out off both few nor now get gets got please tell know want need like hi hello hey thanks thank " +
    "s t d ll m re ve don doesn isn aren wasn won"
  ).split(" "),
  minContentWordLength: 2,
  smallTalk: {
    phrases: {
      greeting: ["hi", "hello", "hey", "hiya", "howdy", "good morning", "good afternoon", "good evening", "hi there", "hello there", "hey there", "greetings"],
      thanks: ["thanks", "thank you", "thx", "ty", "cheers", "thanks a lot", "thank you so much", "thanks so much", "many thanks", "great thanks", "ok thanks", "okay thanks", "perfect thanks", "thanks for your help", "thank you for your help"],
      goodbye: ["bye", "goodbye", "bye bye", "see you", "see you later", "see ya", "have a nice day", "good night"],
      acknowledgement: ["ok", "okay", "ok cool", "okay cool", "great", "cool", "got it", "perfect", "alright", "all right", "yes", "yeah", "yep", "no", "nope", "no thanks", "no thank you", "i see", "understood", "fine", "sounds good", "awesome", "nice"],
    },
    replies: {
      greeting: "Hello! How can I help you today?",
      thanks: "You're welcome! Is there anything else I can help you with?",
      goodbye: "Goodbye, and thanks for stopping by!",
      acknowledgement: "Is there anything else I can help you with?",
    },
    addressees: ["again", "all", "everyone", "team", "guys", "folks", "friend", "bot"],
  },
  personRequest: {
    articles: ["a", "an", "one", "some", "the"],
    adjectives: ["real", "live", "actual"],
    nouns: ["human(?: being)?", "person", "people", "someone", "somebody", "agent", "operator", "representative", "rep", "advisor", "adviser", "member of (?:staff|the team)", "staff"],
    patterns: (person) => [
      // "talk to a human", "speak with someone", "chat to a real person", "connect me to an agent"
      new RegExp(`\\b(?:talk|speak|chat|connect me|put me through|transfer me)\\s+(?:to|with)\\s+${person}\\b`, "iu"),
      // "a real person please", "live agent", "human please", "agent"
      new RegExp(`^\\s*(?:(?:i want|i need|i'd like|i would like|can i have|can i get|get me)\\s+)?${person}(?:\\s+please)?\\s*[.!?]*\\s*$`, "iu"),
      new RegExp(`\\b(?:real|live|actual)\\s+(?:human|person|agent|operator)\\b`, "iu"),
    ],
  },
  yes: ["yes", "yes please", "yeah", "yep", "yup", "sure", "ok", "okay", "ok please", "please", "please do", "yes i would", "yes i would like that", "go ahead", "that would be great"],
  unsureReplies: {
    nothing_found: "I'm not sure about that — I couldn't find it on this site. Would you like me to connect you with a person?",
    doubtful_match: "I'm not sure this answers your question. Would you like me to connect you with a person?",
  },
  pageReplies: {
    quoting: (page) => `From our ${page} page:`,
    mayHelp: (pages) => (pages.length === 1 ? `This page may help: ${pages.join("")}` : `These pages may help: ${pages.join("; ")}`),
  },
  backReference: /^(?:it|its|it's|this|that|these|those|they|their|them|he|she|such|however|but|so|also|otherwise|instead|then|if so|if not|in that case|in this case)\b/iu,
  continuation: /^\s*(?:and|but|also|or|so|then|ok|okay|what about|how about|what if|same for)\b/iu,
  pointingBack: /\b(?:it|its|that|this|those|these|they|them)\b/iu,
  detection: {
    functionWords: ["the", "is", "are", "do", "does", "you", "your", "i", "my", "what", "how", "can", "to", "of", "and", "for", "it", "in", "have", "when", "where", "much", "with", "this", "be"],
    helpDeskWords: ["opening", "hours", "shipping", "delivery", "deliver", "refund", "return", "warranty", "order", "price", "payment", "cancel", "account", "password", "please", "there", "any", "store", "shop", "open", "cost", "free", "help", "thanks"],
    spelling: /(?:^th|ing$|ight|ould$|^wh|w)/u,
    letters: null,
  },
  askedKinds: {
    asks: [
      ["duration", /\bhow (?:long|soon|quickly)\b|\bhow many (?:working |business )?(?:minutes|hours|days|weeks|months|years)\b/iu],
      ["time", /\bwhat time\b|\bopening (?:hours|times)\b|\bwhen (?:are|is|do|does) (?:you|they|it|the \w+) (?:open|close|closed)\b|\bwhat days?\b/iu],
      [
        "amount",
        /\bhow much (?:is|are|does|do|did|will|would|for|to|extra|more)\b|\bwhat(?:'s| is| are| would be| will be)? (?:the )?(?:price|cost|fee|charge)s?\b|\b(?:does|do|would|will) (?:it|they|that|this) cost\b|\bis there (?:a|any) (?:fee|charge|cost)\b|\b(?:do|does|will|would|must) (?:i|we|you|they|he|she) (?:have|need) to pay\b|\bpay anything\b|\b(?:price|cost|fee|charge)s?\s*\?\s*$/iu,
      ],
    ],
    askingWords: { duration: ["long", "soon", "quickly"], amount: ["much"], time: ["time"] },
    holds: {
      duration: new RegExp(
        `\\b${NUMBER}(?:\\s*(?:-|–|to|or)\\s*${NUMBER})?[\\s-]*(?:working |business |full |calendar )?${TIME_UNIT}\\b|\\blifetime\\b|\\b(?:next|same)[\\s-](?:working[\\s-])?day\\b`,
        "iu",
      ),
      amount: /[£$€¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:p|pence|euros?|dollars?|pounds?|%)(?!\w)|\bfree\b|\bno (?:extra )?charge\b|\bat no (?:extra )?cost\b/iu,
      time: /\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bweek(?:days?|ends?)\b|\bbank holidays?\b|\bnoon\b|\bmidnight\b/iu,
    },
    secondAsk: /\b(?:and|also|or|but)\s+(?:what|how|when|where|which|who|why|can|could|do|does|is|are|will|would)\b/iu,
  },
  mail: {
    direction: "ltr",
    personRequestedSubject: (agent) => `A visitor is asking for a person (${agent})`,
    personRequestedIntro: (agent) => `A visitor talking to ${agent} asked for a person, and no operator is online.`,
    unseenVisitorMessageSubject: (agent) => `A visitor is waiting for your answer (${agent})`,
    unseenVisitorMessageIntro: (agent) => `A visitor in a conversation you have with ${agent} wrote to you, and you have not read it yet.`,
    digestSubject: (count) => (count === 1 ? "1 conversation needs you" : `${count} conversations need you`),
    digestIntro: "While you were away, these conversations needed a person:",
    reasonLabel: "Reason",
    lastMessageLabel: "Last message",
    pageLabel: "Page",
    openConversation: "Open the conversation",
    operatorFooter: "You get these e-mails as an operator of Frontdesk. Choose every alert, an hourly digest or none in your profile in the console.",
    replySubject: (operator, agent) => `${operator} replied to you (${agent})`,
    replyIntro: (operator) => `${operator} replied while you were away:`,
    continueConversation: "Continue the conversation",
    transcriptSubject: (agent) => `Your conversation with ${agent}`,
    transcriptIntro: (agent) => `Here is the transcript of your conversation with ${agent}.`,
    you: "You",
    visitorFooter: "You get this e-mail because you left your address in the chat. If that was not you, ignore it.",
    answerTestsRegressedSubject: (agent, count) => (count === 1 ? `An answer test of ${agent} fails now` : `${count} answer tests of ${agent} fail now`),
    answerTestsRegressedIntro: (agent) => `These questions of ${agent} were answered right in the previous run of its answer tests, and are not now:`,
    openAnswerTests: "Open the answer tests",
    mentionedSubject: (author) => `${author} mentioned you in a note`,
    mentionedIntro: (author, agent) => `${author} mentioned you in an internal note of a conversation with ${agent}:`,
  },
};
