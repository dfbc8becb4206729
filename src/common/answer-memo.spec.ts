import { AnswerMemo } from './answer-memo';

describe('AnswerMemo', () => {
  it("recalls what it kept, each asker's answers apart, null included", () => {
    const memo = new AnswerMemo<string | null>();
    const [one, other] = [{}, {}];
    memo.keep(one, 'q', 'a');
    memo.keep(other, 'q', null);
    expect([memo.recall(one, 'q'), memo.recall(other, 'q'), memo.recall(one, 'unasked')]).toEqual(['a', null, undefined]);
  });

  it("starts an asker's answers afresh when the limit is reached", () => {
    const memo = new AnswerMemo<number>(2);
    const asker = {};
    memo.keep(asker, 'first', 1);
    memo.keep(asker, 'second', 2);
    expect(memo.keep(asker, 'third', 3)).toBe(3);
    expect([memo.recall(asker, 'first'), memo.recall(asker, 'second'), memo.recall(asker, 'third')]).toEqual([undefined, undefined, 3]);
  });
});
