/** The answer generator's configuration cannot work; the message says what to set. */
export class AnswerConfigError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "AnswerConfigError";
  }
}
