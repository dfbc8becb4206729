/**
 * Answers kept per asker (a machine, a DTO class) and question, for work that always gives the
 * same answer to the same question. Bounded: an asker's answers start afresh when `limit` are kept.
 */
export class AnswerMemo<TAnswer> {
  private readonly kept = new WeakMap<object, Map<string, TAnswer>>();

  constructor(private readonly limit = 10_000) {}

  /** The answer kept, or undefined when this question was not answered (or was forgotten). */
  recall(asker: object, question: string): TAnswer | undefined {
    return this.kept.get(asker)?.get(question);
  }

  keep(asker: object, question: string, answer: TAnswer): TAnswer {
    let known = this.kept.get(asker);
    if (!known) this.kept.set(asker, (known = new Map()));
    if (known.size >= this.limit) known.clear();
    known.set(question, answer);
    return answer;
  }
}
