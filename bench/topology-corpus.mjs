// The knowledge and the questions of `bench/topology.mjs`: short support articles on a dozen
// topics, and questions about them, so that the extractive answerer finds and quotes passages.
const TOPICS = [
  ["Shipping times", "shipping", "Orders ship within two business days. Standard delivery takes three to five days, express delivery arrives the next day when ordered before noon."],
  ["Returns", "returns", "You can return any unused item within 30 days for a full refund. Print the prepaid label from your account and drop the parcel at any post office."],
  ["Refunds", "refunds", "Refunds reach your card within five business days of the return arriving at our warehouse. Store credit is issued at once."],
  ["Warranty", "warranty", "Every device carries a two-year warranty covering manufacturing faults. Accidental damage is covered only with the care plan."],
  ["Payment methods", "payment", "We accept Visa, Mastercard, American Express, PayPal and bank transfers. Instalments are offered on orders above 200 euros."],
  ["Order tracking", "tracking", "A tracking link is e-mailed when the parcel leaves the warehouse. The link shows every scan of the carrier."],
  ["Gift cards", "gift card", "Gift cards never expire and can be used for several orders. A lost gift card code can be sent again from your account."],
  ["Size guide", "size", "Our sizes run small: choose one size up if you are between two sizes. The size chart lists chest, waist and hip measures."],
  ["International orders", "international", "We deliver to forty countries. Customs duties are included in the price for the European Union and the United Kingdom."],
  ["Account and password", "password", "Reset a forgotten password from the sign-in page. The reset link is valid for one hour and can be used once."],
  ["Store opening hours", "opening hours", "Our stores open from nine to seven on weekdays and from ten to six on Saturdays. They are closed on Sundays."],
  ["Damaged parcels", "damaged", "If a parcel arrives damaged, take a photo and contact us within 48 hours. We send a replacement at no cost."],
];

const QUESTIONS = [
  "How long does shipping take?", "Can I return an item I do not like?", "When will I get my refund?", "What does the warranty cover?",
  "Which payment methods do you accept?", "Where can I track my order?", "Do gift cards expire?", "Which size should I choose?",
  "Do you deliver abroad and who pays customs?", "I forgot my password, what now?", "When are your stores open?", "My parcel arrived damaged, what should I do?",
];

/** `count` articles (title, content, source_url), cycling over the topics with numbered variants. */
export function articles(count) {
  return Array.from({ length: count }, (_, index) => {
    const [title, keyword, text] = TOPICS[index % TOPICS.length];
    const variant = Math.floor(index / TOPICS.length) + 1;
    return {
      title: `${title} (${variant})`,
      content: `${title}. ${text} This page answers common questions about ${keyword} for the collection number ${variant}. ${text} Contact support when the ${keyword} question is not answered here.`,
      source_url: `https://bench.test/help/${keyword.replace(/ /g, "-")}-${variant}`,
    };
  });
}

/** An endless cycle of the questions, each with a number so that no two are the same text. */
export function questions(seed) {
  let next = seed;
  return () => {
    next += 1;
    return `${QUESTIONS[next % QUESTIONS.length]} (${next})`;
  };
}
