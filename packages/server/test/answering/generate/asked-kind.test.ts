import { describe, expect, it } from "vitest";
import { askedKindOf, holdsKind } from "../../../src/answering/generate/asked-kind.js";

describe("askedKindOf", () => {
  it("happy: 'how long' and its kin ask for a duration", () => {
    for (const question of ["How long does the warranty last on e-bike batteries?", "how soon can I get it?", "How quickly do I need to tell you?", "how many working days does delivery take"]) {
      expect(askedKindOf(question, "en"), question).toBe("duration");
    }
  });

  it("happy: 'how much' and a price, cost or fee asked about ask for an amount", () => {
    for (const question of ["How much is shipping?", "roughly how much do people save with salary sacrifice", "what's the price of a bike fit", "saturday delivery price?", "does it cost more to deliver to Inverness", "Is there a fee for returns?", "Do I have to pay anything to send it back?", "Will I need to pay customs duty on a gift?"]) {
      expect(askedKindOf(question, "en"), question).toBe("amount");
    }
  });

  it("happy: 'what time' and opening hours ask for a time", () => {
    for (const question of ["What time does the Brookfield shop shut on a thursday", "opening hours?", "When do you open on Sundays?", "what days is the workshop open"]) {
      expect(askedKindOf(question, "en"), question).toBe("time");
    }
  });

  it("edge: a price, a charge or a cost that is only mentioned asks for nothing", () => {
    for (const question of ["do you price match ebay sellers", "is it bad to charge my ebike battery every night", "what happens if the price goes down after I've pre ordered", "Where are your shops?", "How much weight can the rack carry?", "Can I pay by card?", "Who pays for the return?"]) {
      expect(askedKindOf(question, "en"), question).toBeNull();
    }
  });

  it("edge: a duration asked together with an amount is the duration (the first kind its words name)", () => {
    expect(askedKindOf("does it cost more to get a bike delivered up here and how long does it take?", "en")).toBe("duration");
  });

  it("edge: other languages than English ask for nothing here", () => {
    expect(askedKindOf("Combien coûte la livraison ?", "fr")).toBeNull();
    expect(askedKindOf("How long does it take?", "de")).toBeNull();
    expect(askedKindOf("How long does it take?", "en-GB")).toBe("duration");
  });
});

describe("holdsKind", () => {
  it("happy: durations in figures, in words, as a range, and the usual phrases", () => {
    for (const text of ["E-bike battery | 2 years or 500 full charge cycles", "within 14 days", "3 to 5 working days", "It takes two weeks.", "ready within an hour", "a 30-day return window", "Lifetime, for the original owner", "next-day delivery"]) {
      expect(holdsKind(text, "duration", "en"), text).toBe(true);
    }
    for (const text of ["500 full charge cycles", "less than 70% of its capacity", "Saturday delivery costs £14.95"]) expect(holdsKind(text, "duration", "en"), text).toBe(false);
  });

  it("happy: amounts of money, shares and free", () => {
    for (const text of ["Saturday delivery costs £14.95", "$20 off", "save between 25% and 39%", "It's free on every order.", "There is no charge for collection.", "50p a bag"]) {
      expect(holdsKind(text, "amount", "en"), text).toBe(true);
    }
    for (const text of ["within 14 days", "Carbon frames | 5 years", "Freedom to ride"]) expect(holdsKind(text, "amount", "en"), text).toBe(false);
  });

  it("happy: clock times, days of the week and holidays", () => {
    for (const text of ["Monday | 9:00–18:00", "open 9am to 5:30pm", "closed on Sundays", "weekends only", "On bank holidays all shops open 10:00–16:00."]) {
      expect(holdsKind(text, "time", "en"), text).toBe(true);
    }
    for (const text of ["Carbon frames | 5 years", "It costs £100."]) expect(holdsKind(text, "time", "en"), text).toBe(false);
  });
});
