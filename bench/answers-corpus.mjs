// The knowledge and the questions of `bench/answers.mjs`: synthetic support articles of a shop that
// sells a few hundred products, written from a vocabulary of a few hundred words across thirty
// topics, with numbers, prices, countries and product names in every sentence, so that the full-
// text and vector indexes see a realistic spread of common and rare terms. Deterministic: the
// same seed gives the same articles and the same questions.

/** mulberry32: a small seeded generator; `random()` is in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (min, max) => min + Math.floor(random() * (max - min + 1));
  const pick = (items) => items[Math.floor(random() * items.length)];
  return { random, integer, pick };
}

const BRANDS = ["Aurora", "Nimbus", "Vertex", "Cobalt", "Juniper", "Solstice", "Harbor", "Lumen", "Quartz", "Tundra", "Ember", "Meridian", "Orchid", "Pioneer", "Summit", "Willow"];
const KINDS = ["blender", "kettle", "router", "headphones", "thermostat", "backpack", "desk lamp", "coffee grinder", "smartwatch", "air purifier", "robot vacuum", "action camera", "monitor", "keyboard", "speaker", "toaster"];
const SERIES = ["X", "S", "Pro", "Mini", "Max", "Lite", "Go", "Air"];
const COUNTRIES = ["Germany", "France", "Canada", "Japan", "Australia", "Spain", "Italy", "Mexico", "Brazil", "Norway", "Ireland", "Poland", "Portugal", "Sweden", "Austria", "Belgium"];
const CITIES = ["Leeds", "Rotterdam", "Denver", "Lyon", "Osaka", "Porto", "Krakow", "Dublin", "Austin", "Malmo"];
const PLANS = ["Basic", "Plus", "Premium", "Family", "Business"];
const COLORS = ["graphite", "sage green", "sand", "midnight blue", "coral", "white"];
const PARTS = ["filter", "battery", "charging cable", "power adapter", "lid", "blade assembly", "ear cushions", "wall mount", "remote control", "carrying case"];
const CHANNELS = ["live chat", "email", "phone line", "contact form", "community forum"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Every product: brand, series and number, and what it is (e.g. "Aurora X200 blender"). */
function buildCatalog() {
  const products = [];
  const random = seededRandom(7);
  for (const brand of BRANDS) {
    for (const kind of KINDS) {
      products.push(`${brand} ${random.pick(SERIES)}${random.integer(1, 9) * 100} ${kind}`);
    }
  }
  return products;
}

/**
 * Per topic: statements an article makes (slots in braces), the conditions a statement may carry,
 * and the questions a visitor asks about it.
 */
const TOPICS = {
  shipping: {
    statements: [
      "Standard shipping of the {product} to {country} takes {n} to {m} business days",
      "Express delivery costs ${price} and arrives within {n} business days in most regions",
      "Orders placed before {hour} pm leave our {city} warehouse the same day",
      "A tracking number is emailed as soon as the parcel leaves the {city} warehouse",
      "Bulky items such as the {product} travel with a freight carrier who calls ahead to book a slot",
      "We do not ship to post office boxes for parcels heavier than {n} kilograms",
    ],
    questions: ["How long does shipping to {country} take?", "How much is express delivery for the {product}?", "When will my order ship if I buy before {hour} pm?", "Where is my tracking number?"],
  },
  returns: {
    statements: [
      "You can return the {product} within {days} days of delivery for any reason",
      "Returned items must include the original packaging, the manual and every accessory",
      "Print the prepaid return label from your account page and drop the box at any carrier point",
      "Opened hygiene products such as ear cushions cannot be returned unless they are faulty",
      "A return is inspected at the {city} returns centre within {n} working days of arrival",
      "Exchanges for a different colour such as {color} are processed as a new order",
    ],
    questions: ["Can I return the {product} after {days} days?", "How do I print a return label?", "Can I exchange my {product} for the {color} colour?", "Do I need the original box to return an item?"],
  },
  refunds: {
    statements: [
      "Refunds go back to the original payment method within {n} business days of the inspection",
      "Shipping fees are refunded only when the {product} arrived damaged or was the wrong item",
      "A partial refund of {percent} percent applies to items returned without accessories",
      "Store credit is issued instantly and carries a bonus of {percent} percent",
      "Refunds to gift cards appear as a new card code sent by email",
    ],
    questions: ["When will I get my refund?", "Is the shipping fee refunded?", "Why did I only get a partial refund for the {product}?", "Can I get store credit instead of a refund?"],
  },
  warranty: {
    statements: [
      "The {product} is covered by a {years} year limited warranty against manufacturing defects",
      "The warranty does not cover accidental damage, water damage or normal wear of the {part}",
      "Register your serial number within {days} days to extend the warranty by one year",
      "Warranty claims need the order number and a short video that shows the fault",
      "An approved claim ships a replacement {part} or a refurbished unit within {n} days",
    ],
    questions: ["How long is the warranty on the {product}?", "Does the warranty cover water damage?", "How do I make a warranty claim?", "Can I extend the warranty of my {product}?"],
  },
  billing: {
    statements: [
      "We accept credit cards, debit cards, PayPal and bank transfer for orders over ${price}",
      "Your card is charged when the {product} ships, not when the order is placed",
      "Invoices with VAT are available as PDF files on the orders page of your account",
      "A declined payment keeps the order on hold for {n} days before it is cancelled",
      "Instalment payments in {n} monthly parts are offered for baskets above ${price}",
    ],
    questions: ["When is my card charged?", "Can I pay the {product} in instalments?", "Where do I download my invoice?", "Which payment methods do you accept?"],
  },
  subscriptions: {
    statements: [
      "The {plan} plan renews every month at ${price} until you cancel it",
      "Switching from the {plan} plan to another plan takes effect at the next billing date",
      "Cancelling a subscription keeps the benefits until the end of the paid period",
      "The {plan} plan includes free filter deliveries every {n} months for the {product}",
      "Annual billing of the {plan} plan saves {percent} percent compared with monthly billing",
    ],
    questions: ["How do I cancel the {plan} plan?", "What does the {plan} plan include?", "Can I switch to annual billing?", "When does my subscription renew?"],
  },
  account: {
    statements: [
      "You can change the email address of your account under profile settings",
      "Two-step verification sends a {n} digit code by text message or an authenticator app",
      "Deleting your account removes your order history after {days} days",
      "Guest orders can be linked to a new account with the same email address",
      "A locked account opens again automatically after {n} minutes",
    ],
    questions: ["How do I change my email address?", "How do I turn on two-step verification?", "Why is my account locked?", "Can I delete my account?"],
  },
  password: {
    statements: [
      "Reset your password with the link on the sign-in page, which stays valid for {n} minutes",
      "A new password needs at least {n} characters, one number and one symbol",
      "If the reset email does not arrive, check the spam folder and wait {n} minutes",
      "After {n} failed attempts the sign-in page asks for a captcha",
    ],
    questions: ["How do I reset my password?", "The password reset email never arrived, what now?", "What are the password rules?"],
  },
  setup: {
    statements: [
      "Unpack the {product}, charge it for {n} hours and hold the power button for {seconds} seconds",
      "The companion app pairs with the {product} over Bluetooth and then joins your wifi network",
      "Place the {product} at least {n} centimetres away from walls for the best results",
      "The quick start guide in the box shows every button of the {product}",
      "Setup needs a 2.4 GHz wifi network; 5 GHz networks are not supported by the {product}",
    ],
    questions: ["How do I set up the {product}?", "Does the {product} work with 5 GHz wifi?", "How long should I charge the {product} before first use?", "How do I pair the {product} with the app?"],
  },
  troubleshooting: {
    statements: [
      "If the {product} does not turn on, charge it for {n} minutes and try again",
      "A blinking red light on the {product} means the {part} needs attention",
      "Restart the {product} by holding the power button for {seconds} seconds",
      "Strange noises usually come from a loose {part}; tighten it by hand",
      "If the {product} keeps disconnecting, move the router within {n} metres",
    ],
    questions: ["My {product} does not turn on, what should I do?", "What does the blinking red light mean?", "How do I restart the {product}?", "Why does my {product} keep disconnecting?"],
  },
  battery: {
    statements: [
      "A full charge of the {product} lasts about {n} hours of normal use",
      "The battery of the {product} reaches {percent} percent in {n} minutes with the fast charger",
      "Store the {product} half charged if you will not use it for several months",
      "Battery capacity drops slowly and stays above {percent} percent after {n} charge cycles",
      "A replacement battery for the {product} costs ${price}",
    ],
    questions: ["How long does the battery of the {product} last?", "How much is a replacement battery?", "How fast does the {product} charge?"],
  },
  firmware: {
    statements: [
      "Firmware updates for the {product} install overnight when it is connected to power",
      "Version {version} of the firmware fixes pairing problems and improves battery life",
      "You can check the firmware version of the {product} in the settings menu of the app",
      "Never unplug the {product} while an update is running; the light pulses blue until it ends",
    ],
    questions: ["How do I update the firmware of the {product}?", "What changed in firmware {version}?", "Which firmware version does my {product} have?"],
  },
  cleaning: {
    statements: [
      "Clean the {part} of the {product} with warm water and mild soap every {n} weeks",
      "Do not put the {product} in the dishwasher; wipe it with a damp cloth",
      "Descale the {product} every {n} months with a solution of vinegar and water",
      "Replace the {part} every {n} months to keep the {product} working well",
    ],
    questions: ["How do I clean the {product}?", "Can the {product} go in the dishwasher?", "How often should I replace the {part}?"],
  },
  "gift cards": {
    statements: [
      "Gift cards are sold from ${price} and never expire",
      "A gift card code can be used on several orders until the balance is zero",
      "Lost gift cards can be replaced when you still have the purchase receipt",
      "Gift cards cannot be used to buy other gift cards or the {plan} plan",
    ],
    questions: ["Do gift cards expire?", "Can I use a gift card on the {plan} plan?", "I lost my gift card, can you replace it?"],
  },
  loyalty: {
    statements: [
      "Members earn {n} loyalty points for every dollar spent on products such as the {product}",
      "Every {points} points can be redeemed for a ${price} voucher at checkout",
      "Loyalty points expire {n} months after the last purchase",
      "Members of the {plan} plan earn double points on accessories",
    ],
    questions: ["How many loyalty points do I earn?", "When do my loyalty points expire?", "How do I redeem {points} points?"],
  },
  pickup: {
    statements: [
      "Store pickup is free and the order is ready within {n} hours at the {city} store",
      "Bring the pickup code from the confirmation email and a photo identity document",
      "Orders wait at the pickup counter for {days} days before they are returned to stock",
      "Pickup lockers in {city} are open every day from {hour} am",
    ],
    questions: ["How long does store pickup take in {city}?", "What do I need to collect my order?", "How long will the store hold my order?"],
  },
  international: {
    statements: [
      "Orders to {country} may be charged customs duties and import VAT on delivery",
      "Prices shown for {country} include duties, so nothing more is due at the door",
      "International returns from {country} are free for defective items only",
      "Some products such as the {product} cannot be shipped to {country} because of battery rules",
    ],
    questions: ["Do I pay customs duties in {country}?", "Can you ship the {product} to {country}?", "Are returns from {country} free?"],
  },
  discounts: {
    statements: [
      "Discount codes give {percent} percent off and cannot be combined with other offers",
      "Students get {percent} percent off after verifying their school email address",
      "Price matching applies when a major retailer sells the {product} for less within {days} days",
      "The seasonal sale starts every {day} in November and ends after {n} days",
    ],
    questions: ["Can I combine two discount codes?", "Do you offer a student discount?", "Do you match prices on the {product}?"],
  },
  privacy: {
    statements: [
      "We keep order data for {years} years because tax law requires it",
      "You can download a copy of your personal data from the privacy page as a zip file",
      "Marketing emails stop within {n} days after you unsubscribe",
      "The {product} app stores usage data on servers in {country} and never sells it",
    ],
    questions: ["How long do you keep my data?", "How do I download my personal data?", "Where does the {product} app store my data?"],
  },
  repairs: {
    statements: [
      "Out-of-warranty repairs of the {product} cost a flat fee of ${price} plus parts",
      "Send the {product} to the {city} repair centre with the repair form from your account",
      "Most repairs are finished within {n} business days of arrival",
      "Genuine {part} replacements are sold separately for the {product}",
    ],
    questions: ["How much does a repair of the {product} cost?", "Where do I send my {product} for repair?", "Can I buy a new {part} for the {product}?"],
  },
  support: {
    statements: [
      "Our {channel} is open from {hour} am to {hour2} pm, {day} to Friday",
      "Average waiting time on the {channel} is {n} minutes",
      "Business customers on the {plan} plan have a dedicated account manager",
      "Please have the order number ready when you contact us through the {channel}",
    ],
    questions: ["When is the {channel} open?", "How do I contact support?", "Do business customers get an account manager?"],
  },
};

const CONDITIONS = [
  "unless the item is on backorder",
  "for orders over ${price}",
  "when you are signed in to your account",
  "during the holiday season",
  "if you chose store pickup",
  "for members of the {plan} plan",
  "except on public holidays",
  "when the serial number is registered",
  "if the item was bought in {country}",
  "for the {color} edition as well",
];

/** Questions about nothing the shop covers: retrieval still runs, the answer says it doesn't know. */
const OFF_TOPIC = [
  "Do you sell concert tickets for {city}?",
  "What is the weather like in {city} today?",
  "Can you recommend a good recipe for lasagna?",
  "Who won the football match in {country} yesterday?",
  "Do you rent holiday apartments in {city}?",
];

const TOPIC_NAMES = Object.keys(TOPICS);
const PRODUCTS = buildCatalog();

/** What each `{slot}` of a template becomes (the product is the article's own, when it has one). */
const SLOTS = {
  country: (random) => random.pick(COUNTRIES),
  city: (random) => random.pick(CITIES),
  plan: (random) => random.pick(PLANS),
  color: (random) => random.pick(COLORS),
  part: (random) => random.pick(PARTS),
  channel: (random) => random.pick(CHANNELS),
  day: (random) => random.pick(DAYS),
  price: (random) => String(random.pick([5, 9, 12, 15, 19, 25, 29, 35, 49, 59, 79, 99, 149, 199])),
  percent: (random) => String(random.pick([5, 10, 15, 20, 25, 30, 40, 50, 80])),
  years: (random) => String(random.integer(1, 5)),
  days: (random) => String(random.pick([7, 14, 30, 45, 60, 90])),
  hour: (random) => String(random.integer(7, 11)),
  hour2: (random) => String(random.integer(5, 9)),
  seconds: (random) => String(random.pick([3, 5, 10, 15])),
  points: (random) => String(random.pick([100, 250, 500, 1000])),
  version: (random) => `${random.integer(1, 4)}.${random.integer(0, 9)}.${random.integer(0, 20)}`,
  n: (random) => String(random.integer(2, 12)),
  m: (random) => String(random.integer(13, 21)),
};

function fill(template, random, product) {
  return template.replace(/\{(\w+)\}/g, (_, slot) => {
    if (slot === "product") return product ?? random.pick(PRODUCTS);
    const value = SLOTS[slot];
    if (!value) throw new Error(`unknown slot ${slot}`);
    return value(random);
  });
}

function sentence(random, topic, product) {
  let text = fill(random.pick(TOPICS[topic].statements), random, product);
  if (random.random() < 0.4) text += `, ${fill(random.pick(CONDITIONS), random, product)}`;
  return `${text}.`;
}

/**
 * One support article: a topic and a product, paragraphs of 3–7 sentences, mostly on its topic
 * (about a quarter on related topics), with `paragraphs` paragraphs.
 */
export function supportArticle(random, index, paragraphs) {
  const topic = TOPIC_NAMES[index % TOPIC_NAMES.length];
  const product = PRODUCTS[Math.floor(index / TOPIC_NAMES.length) % PRODUCTS.length];
  const title = random.pick([
    `${product}: ${topic}`,
    `${topic[0].toUpperCase()}${topic.slice(1)} for the ${product}`,
    `Help centre — ${topic} (${product})`,
    `Everything about ${topic} and the ${product}`,
  ]);
  const parts = [];
  for (let p = 0; p < paragraphs; p += 1) {
    const sentences = [];
    const count = random.integer(3, 7);
    for (let s = 0; s < count; s += 1) {
      const sentenceTopic = random.random() < 0.75 ? topic : random.pick(TOPIC_NAMES);
      sentences.push(sentence(random, sentenceTopic, random.random() < 0.7 ? product : undefined));
    }
    parts.push(sentences.join(" "));
  }
  const slug = `${topic.replace(/\s+/g, "-")}-${product.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${index}`;
  return { title, content: parts.join("\n\n"), sourceUrl: `https://bench.test/help/${slug}` };
}

/**
 * Articles until `chunkCount` reports at least `targetChunks` chunks in all (the caller measures
 * with the service's own chunker, so the store ends up with the number asked for).
 */
export function generateCorpus({ targetChunks, articles, seed = 42, chunkCount }) {
  const random = seededRandom(seed);
  const perArticle = Math.max(1, Math.round(targetChunks / articles));
  const documents = [];
  let chunks = 0;
  for (let index = 0; chunks < targetChunks; index += 1) {
    // ~5 sentences of ~15 words (with numbers and punctuation, ~1.6 estimated tokens a word) per
    // paragraph: about two paragraphs fill a 300-token chunk, less its overlap.
    const paragraphs = Math.max(1, Math.round(perArticle * 1.95 + (random.random() - 0.5) * perArticle * 1.5));
    const article = supportArticle(random, index, paragraphs);
    const count = chunkCount(article);
    documents.push({ ...article, chunks: count });
    chunks += count;
  }
  return { documents, chunks };
}

/**
 * An endless stream of distinct visitor questions: on-topic ones filled from the same vocabulary
 * (nine in ten), and off-topic ones. `next()` never repeats a question within a run.
 */
export function questionStream(seed) {
  const random = seededRandom(seed);
  const asked = new Set();
  return {
    next() {
      for (let attempt = 0; ; attempt += 1) {
        const template = random.random() < 0.1 ? random.pick(OFF_TOPIC) : random.pick(TOPICS[random.pick(TOPIC_NAMES)].questions);
        let question = fill(template, random);
        if (attempt > 20) question = `${question.slice(0, -1)} (${asked.size})?`;
        if (!asked.has(question)) {
          asked.add(question);
          return question;
        }
      }
    },
  };
}
