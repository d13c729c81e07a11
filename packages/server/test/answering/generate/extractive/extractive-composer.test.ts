import { describe, expect, it } from "vitest";
import type { Passage } from "../../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../../src/answering/generate/collect-answer.js";
import { ExtractiveAnswerGenerator } from "../../../../src/answering/generate/extractive-answer-generator.js";
import { selectSentences } from "../../../../src/answering/generate/extractive/extractive-composer.js";
import { splitPassage, splitSentences } from "../../../../src/answering/generate/split-sentences.js";
import { answerRequest } from "../answer-request.js";

/** Chunk texts as ingest writes them: blocks between blank lines, list items `- ` or `1. `, table cells joined by ` | `. */
const passage = (documentId: number, content: string, extra: Partial<Passage> = {}): Passage => ({
  number: documentId,
  documentId,
  url: `https://bikes.test/${documentId}`,
  title: "",
  heading: null,
  content,
  score: 1,
  ...extra,
});

const PAYMENT = passage(
  1,
  "We accept a wide range of payment methods online and in our shops.\n\nOnline\n\n- Debit and credit cards\n- Wallet apps, including split payments in 3\n- Bank transfer from your phone\n\n" +
    "We don't accept cheques, cryptocurrency or cash on delivery. Business customers can pay by bank transfer on invoice.",
);
const COMPLAINTS = passage(
  2,
  "Use the Adviser Finder to find a registered adviser near you.\n\nYou can complain about:\n\n- poor advice or service\n- unreasonable fees\n- an adviser missing deadlines\n\nYou usually cannot complain about something that happened more than 12 months ago.",
);
const PRICE_MATCH = passage(
  3,
  "If another UK retailer sells the same product for less, we'll match their price.\n\nWhat we won't match\n\n" +
    "- Marketplace sellers on sites such as eBay, and private sellers.\n- Prices that need a membership or a voucher code.\n- Clearance or second-hand items.",
);
const WARRANTY = passage(
  4,
  "This page explains what our warranty covers and how to make a claim.\n\nPart | Warranty period\nAluminium frames | Lifetime, for the original owner\nCarbon frames | 5 years\nForks | 2 years",
);
const BATTERIES = passage(
  5,
  "Lithium-ion batteries are classed as dangerous goods for transport. That means spare batteries follow different rules from the rest of our range.\n\nDelivery takes 3 to 6 working days.",
);

const texts = (question: string, passages: Passage[]): string[] => selectSentences(question, passages, "en").map((sentence) => sentence.text);

describe("sentence splitting keeps list and table lines whole", () => {
  it("happy: a numbered item is one sentence with its number; a lone item is an item, not a heading; rows are marked", () => {
    const sentences = splitPassage(
      "How it works\n\n1. Choose your bike in a shop. Make a note of the total.\n2. Apply through your employer\n\n- The Law Society if you live in England\n\nDay | Hours\nMonday | 9:00–18:00\nWorkshop check | Bikes only. A mechanic inspects the bike. This adds 1–2 days.",
      "en",
    );
    expect(sentences.map((sentence) => [sentence.text, sentence.heading, sentence.item, sentence.row])).toEqual([
      ["How it works", true, false, false],
      ["1. Choose your bike in a shop.", false, true, false],
      ["Make a note of the total.", false, true, false],
      ["2. Apply through your employer", false, true, false],
      ["- The Law Society if you live in England", false, true, false],
      ["Day | Hours", false, false, true],
      ["Monday | 9:00–18:00", false, false, true],
      // A row is one sentence, however many its cells hold: its cells only make sense together.
      ["Workshop check | Bikes only. A mechanic inspects the bike. This adds 1–2 days.", false, false, true],
    ]);
  });
});

describe("a quoted label ending in a question mark", () => {
  const ACCOUNT = passage(
    15,
    "I've forgotten my password\n\n" +
      'On the sign-in page, click "Forgotten password?" and enter the email address you registered with. We\'ll send you a reset link. Your new password must be at least 10 characters long.\n\n' +
      "Is it safe? Yes.\nClick \u201cHelp!\u201d\nand follow the steps.",
  );

  it("happy: does not end the sentence it is quoted in, so the sentence is not taken for a question and is quoted", () => {
    expect(splitSentences('Click "Forgotten password?" and enter your email. Then wait!', "en")).toEqual(['Click "Forgotten password?" and enter your email.', "Then wait!"]);
    expect(texts("forgot password", [ACCOUNT])[0]).toBe('On the sign-in page, click "Forgotten password?" and enter the email address you registered with.');
  });

  it("edge: a real question, a quoted question followed by a capital, and a line break still end a sentence", () => {
    expect(splitSentences('Is it free? Yes. Ask "Why?" Then go.', "en")).toEqual(["Is it free?", "Yes.", 'Ask "Why?"', "Then go."]);
    expect(splitPassage(ACCOUNT.content, "en").slice(-2).map((sentence) => sentence.text)).toEqual(["Click \u201cHelp!\u201d", "and follow the steps."]);
  });
});

describe("sentence selection (happy)", () => {
  it("the question's rarest word decides: 'cash' outweighs 'pay' on a payment page, and list items without their lead-in are not quoted", () => {
    expect(texts("Can I pay cash when the courier arrives?", [PAYMENT])).toEqual([
      "We don't accept cheques, cryptocurrency or cash on delivery.",
      "Business customers can pay by bank transfer on invoice.",
    ]);
  });

  it("an item that cannot stand alone is quoted under its short heading when it is the best answer ('Online' over the wallet item), not when another sentence is", () => {
    expect(texts("Can I pay with a wallet app?", [PAYMENT])).toEqual(["Online", "- Wallet apps, including split payments in 3"]);
    // Furniture is no heading, however short.
    const furnished = passage(1, PAYMENT.content.replace("Online", "Reply · Share"));
    expect(texts("Can I pay with a wallet app?", [furnished])).toEqual(["Business customers can pay by bank transfer on invoice."]);
  });

  it("every retrieved passage of the best document is read, not only the best three passages: the one saying how long comes from the fifth", () => {
    const returns = (chunkIndex: number, content: string) => passage(1, content, { chunkIndex });
    const passages = [
      returns(1, "Bikes and e-bikes are too big for the post, so we arrange a courier collection. You can also return a bike to one of our shops at no charge."),
      passage(2, "Gift cards are valid for 24 months. You can't return a gift card."),
      passage(3, "Please don't post a battery back to us. Bike batteries go by courier."),
      passage(4, "A Acme account lets you manage returns and book a bike service."),
      returns(0, "You may return any unused item within 30 days of the day it was delivered to you. Bikes must be unridden."),
    ];
    expect(texts("How long do I have to return a bike?", passages)).toContain("You may return any unused item within 30 days of the day it was delivered to you.");
    // Another document's fifth passage is not read.
    expect(texts("How long do I have to return a bike?", [...passages.slice(0, 4), passage(5, "Bikes can be returned within 14 days.")])).not.toContain("Bikes can be returned within 14 days.");
  });

  it("when the first sentence quoted states the kind of fact asked for, the others must state one too; not when the message asks a second thing", () => {
    const shops = passage(1, "The Brookfield shop closes at 20:00 on Thursday.\n\nThe Brookfield shop has an accessible toilet and a lift to the first floor.\n\nParking at the Brookfield shop is free after 18:00.");
    expect(texts("What time does the Brookfield shop close on Thursday?", [shops])).toEqual([
      "The Brookfield shop closes at 20:00 on Thursday.",
      "Parking at the Brookfield shop is free after 18:00.",
    ]);
    expect(texts("Where is the Brookfield shop and what time does it close on Thursday?", [shops])).toContain("The Brookfield shop has an accessible toilet and a lift to the first floor.");
  });

  it("an item of several sentences under a heading is quoted whole, not from its second sentence", () => {
    const preOrders = passage(
      1,
      "What you pay and when\n\n- Bikes: we take a £100 deposit when you order.\n- Parts: nothing is taken up front.\n- Finance: pre-orders can't be bought on finance. Once the bike arrives, we'll email you so you can switch to finance.",
    );
    expect(texts("Will you email me when it arrives?", [preOrders])).toEqual([
      "What you pay and when",
      "- Finance: pre-orders can't be bought on finance.",
      "Once the bike arrives, we'll email you so you can switch to finance.",
    ]);
  });

  it("a sentence ending in a colon comes with its whole list when it fits", () => {
    expect(texts("Can I complain about unreasonable fees?", [COMPLAINTS])).toEqual([
      "You can complain about:",
      "- poor advice or service",
      "- unreasonable fees",
      "- an adviser missing deadlines",
    ]);
  });

  it("a lead-in opening with a back-reference comes with the sentence before it in its paragraph", () => {
    const volunteering = passage(
      16,
      "You can help others by picking up shopping and offering support on the phone. This includes:\n\n- neighbours who are at high risk\n- people who are feeling lonely\n\nStay safe.",
    );
    expect(texts("can I help lonely neighbours", [volunteering])).toEqual([
      "You can help others by picking up shopping and offering support on the phone.",
      "This includes:",
      "- neighbours who are at high risk",
      "- people who are feeling lonely",
    ]);
  });

  it("a list item comes under its heading, with only the items that answer", () => {
    expect(texts("do you price match ebay sellers", [PRICE_MATCH])).toEqual(["What we won't match", "- Marketplace sellers on sites such as eBay, and private sellers."]);
  });

  it("a table row comes with the table's header row, and 'This page explains …' is never quoted", () => {
    expect(texts("how long is the warranty on a carbon frame", [WARRANTY])).toEqual(["Part | Warranty period", "Carbon frames | 5 years"]);
  });

  it("a question asking how long gets the row that says how long ahead of a sentence holding more of its words", () => {
    const warranty = passage(
      8,
      // The header names no word of the questions, so that only the kind asked brings the row.
      "Part | Cover\nCarbon frames | 5 years\nE-bike motor and display | 2 years\nE-bike battery | 2 years or 500 full charge cycles, whichever comes first\n\n" +
        "An e-bike battery is faulty under warranty if it holds less than 70% of its capacity within the warranty period.",
    );
    expect(texts("How long does the warranty last on e-bike batteries?", [warranty])).toEqual([
      "Part | Cover",
      "E-bike battery | 2 years or 500 full charge cycles, whichever comes first",
      "An e-bike battery is faulty under warranty if it holds less than 70% of its capacity within the warranty period.",
    ]);
    // Asked otherwise, the same page answers with the sentence alone.
    expect(texts("When is an e-bike battery faulty under warranty?", [warranty])).toEqual([
      "An e-bike battery is faulty under warranty if it holds less than 70% of its capacity within the warranty period.",
    ]);
  });

  it("a question asking how much gets the sentence stating an amount beside the best one, which states none", () => {
    const scheme = passage(
      9,
      "The cycle to work scheme lets employees get a bike through their employer and pay for it from their salary before tax.\n\n" +
        "You can choose any bike we sell, and accessories too.\n\nMost people save between 25% and 39% of the price, depending on their tax band.",
    );
    expect(texts("roughly how much do people save with the salary sacrifice bike scheme", [scheme])).toEqual([
      "The cycle to work scheme lets employees get a bike through their employer and pay for it from their salary before tax.",
      "Most people save between 25% and 39% of the price, depending on their tax band.",
    ]);
  });

  it("a row whose cell holds several sentences is quoted whole, with its header", () => {
    const statuses = passage(
      14,
      "Your order moves through these statuses.\n\nStatus | What's happening\nReceived | We have your order.\n" +
        "Workshop check | Bikes only. A mechanic carries out our 40-point pre-delivery inspection and boxes the bike. This adds 1–2 working days.\nDispatched | The parcel is with the courier.",
    );
    expect(texts("what does 'workshop check' mean on my order status", [statuses])).toEqual([
      "Status | What's happening",
      "Workshop check | Bikes only. A mechanic carries out our 40-point pre-delivery inspection and boxes the bike. This adds 1–2 working days.",
    ]);
  });

  it("the row answering by its own words is read with its columns' names: Elmford's Saturday hours beat a sentence naming Elmford, even when 'Saturday' is everywhere", () => {
    const hours = passage(
      18,
      "Opening hours\n\nBrookfield, Ashcombe, Westbury | Elmford\nMonday | 9:00–18:00 | Closed\nSaturday | 9:00–17:30 | 9:30–17:30\nSunday | 10:00–16:00 | Closed\n\n" +
        "On bank holidays all shops, including Elmford, open 10:00–16:00. All shops are closed on Christmas Day.",
    );
    const saturdayDelivery = passage(
      19,
      "Order by 1pm on Friday and choose Saturday delivery.\n\nSaturday delivery costs £14.95.\n\nSaturday deliveries arrive between 8am and 6pm.\n\nWe do not deliver on Saturday to the Highlands.",
    );
    const reply = texts("What time does the Elmford shop close on Saturday?", [hours, saturdayDelivery]);
    expect(reply.slice(0, 2)).toEqual(["Brookfield, Ashcombe, Westbury | Elmford", "Saturday | 9:00–17:30 | 9:30–17:30"]);
    // Only that row: the table's other rows, which hold none of the question's own words, do not come along.
    expect(reply).not.toContain("Monday | 9:00–18:00 | Closed");
    expect(reply).not.toContain("Sunday | 10:00–16:00 | Closed");
  });

  it("a table's header row is never quoted alone, however many of the question's words it holds", () => {
    const shops = passage(
      17,
      "Westbury\n\nUnit 3, Dock Arches, Westbury WB1 6EA. Road bikes, a workshop and rental bikes.\n\nBrookfield, Ashcombe, Westbury | Elmford\nMonday | 9:00–18:00 | Closed",
    );
    expect(texts("where's your westbury shop?", [shops])).toEqual(["Unit 3, Dock Arches, Westbury WB1 6EA.", "Road bikes, a workshop and rental bikes."]);
  });

  it("a table row of few letters is quoted with its header: the row is the answer", () => {
    const pressures = passage(12, "Tyre type | Typical width | Pressure (psi)\nRoad | 28mm | 65–80\nGravel | 40mm | 35–50\n\nSome pumps show bar instead of psi.");
    expect(texts("what psi for 28mm road tyres", [pressures])).toEqual(["Tyre type | Typical width | Pressure (psi)", "Road | 28mm | 65–80"]);
  });

  it("a row of opening hours answers the day it names, and 'time' in 'what time' matches no sentence's 'in good time'", () => {
    const hours = passage(
      13,
      "Elmford\n\n41 Castlegate, Elmford EL1 6JH. Elmford doesn't have a workshop, but you can pick up click and collect orders there.\n\nOpening hours\n\n" +
        "Brookfield, Ashcombe, Westbury | Elmford\nMonday | 9:00–18:00 | Closed\nSaturday | 9:00–17:30 | 9:30–17:30\nSunday | 10:00–16:00 | Closed\n\n" +
        "On bank holidays all shops, including Elmford, open 10:00–16:00. All shops are closed on Christmas Day. Workshops close 30 minutes before the shop, so please drop off and collect bikes in good time.",
    );
    expect(texts("What time does the Elmford shop close on Saturday?", [hours]).slice(0, 2)).toEqual(["Brookfield, Ashcombe, Westbury | Elmford", "Saturday | 9:00–17:30 | 9:30–17:30"]);
  });

  it("a word spelled the other way (American or British) finds the page's spelling", () => {
    const tyres = passage(12, "Check the pressure before every ride. Inner tubes can be patched twice.\n\nOur tyres come from Schwalbe and Continental.");
    expect(texts("Which brands of tires?", [tyres])).toEqual(["Our tyres come from Schwalbe and Continental."]);
    expect(texts("Which brands of tires?", [tyres])).toEqual(texts("Which brands of tyres?", [tyres]));
  });

  it("a sentence opening with a back-reference comes with the sentence it points to", () => {
    expect(texts("What are the rules for spare batteries?", [BATTERIES])).toEqual([
      "Lithium-ion batteries are classed as dangerous goods for transport.",
      "That means spare batteries follow different rules from the rest of our range.",
    ]);
  });

  it("the best sentence is read on to the end of its paragraph line", () => {
    const shop = passage(6, "Our shops are in Brookfield and Elmford.\n\nClick and collect is free on every order. Choose Collect from store at checkout.\n\nBikes are built in Brookfield.");
    expect(texts("is click and collect free?", [shop])).toEqual(["Click and collect is free on every order.", "Choose Collect from store at checkout."]);
  });

  it("sentences of two passages of one document are quoted in page order when retrieval gives the chunks' places", () => {
    const later = passage(7, "Refunds reach your card within 5 working days of the return.", { chunkIndex: 3 });
    const earlier = passage(7, "You can return a bike within 30 days for a refund.", { chunkIndex: 0 });
    expect(texts("how long does a refund for a return take", [later, earlier])).toEqual([
      "You can return a bike within 30 days for a refund.",
      "Refunds reach your card within 5 working days of the return.",
    ]);
    // Without them, retrieval's order stands.
    const { chunkIndex: _a, ...laterUnplaced } = later;
    const { chunkIndex: _b, ...earlierUnplaced } = earlier;
    expect(texts("how long does a refund for a return take", [laterUnplaced, earlierUnplaced])[0]).toBe("Refunds reach your card within 5 working days of the return.");
  });
});

describe("a second document only when the question needs it", () => {
  const delivery = passage(10, "We deliver to Germany and France in 3 days. Delivery to Germany costs €9.");
  const bikes = passage(11, "Our gravel bikes cost from €900 and come in five sizes.");

  it("happy: a second question sharing no word with the first document's sentences gets the best sentence of the next document, after the first document's", () => {
    const chosen = selectSentences("Do you deliver to Germany? How much is a gravel bike?", [delivery, bikes], "en");
    expect(chosen.map((sentence) => sentence.documentId)).toEqual([10, 10, 11]);
    expect(chosen.at(-1)?.text).toBe("Our gravel bikes cost from €900 and come in five sizes.");
  });

  it("happy: a reply quoting two pages names each before its sentences, a blank line apart", async () => {
    const passages = [
      { ...delivery, title: "Delivery | Bikes", url: "https://bikes.test/delivery" },
      { ...bikes, title: "Gravel bikes | Bikes", url: "https://bikes.test/gravel" },
    ];
    const answer = await collectAnswer(new ExtractiveAnswerGenerator().generate(answerRequest({ question: "Do you deliver to Germany? How much is a gravel bike?", passages })));
    const [first, second, ...rest] = answer.content.split("\n\n");
    expect(rest).toEqual([]);
    expect(first).toMatch(/^From our Delivery page: \S/);
    expect(second).toBe("From our Gravel bikes page: Our gravel bikes cost from €900 and come in five sizes.");
  });

  it("happy: not when every question of the message shares a word with the first document's sentences", () => {
    const chosen = selectSentences("Do you deliver to Germany? How much does delivery to Germany cost?", [delivery, bikes], "en");
    expect(new Set(chosen.map((sentence) => sentence.documentId))).toEqual(new Set([10]));
  });

  it("happy: not for a single question, however many things it names", () => {
    const chosen = selectSentences("Do you deliver gravel bikes to Germany", [delivery, bikes], "en");
    expect(new Set(chosen.map((sentence) => sentence.documentId))).toEqual(new Set([10]));
  });
});

describe("extractive reply text", () => {
  const generator = new ExtractiveAnswerGenerator();

  it("happy: a list stays under its lead-in line by line, and the reply cites the quoted document first, then the others in retrieval order", async () => {
    const answer = await collectAnswer(
      generator.generate(answerRequest({ question: "Can I complain about unreasonable fees?", passages: [PAYMENT, COMPLAINTS, PRICE_MATCH] })),
    );
    expect(answer.content).toBe("You can complain about:\n- poor advice or service\n- unreasonable fees\n- an adviser missing deadlines");
    expect(answer.citedDocumentIds).toEqual([2, 1, 3]);
  });
});
