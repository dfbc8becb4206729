import { shaped } from './profile';

expect.extend({
  toEqualBody(received: unknown, expected: unknown) {
    const wanted = shaped(expected);
    const pass = this.equals(received, wanted);
    return {
      pass,
      message: () => `${this.utils.matcherHint('toEqualBody')}\n\n${this.utils.diff(wanted, received) ?? ''}`,
    };
  },
  toMatchBody(received: unknown, expected: object) {
    const wanted = shaped(expected);
    const pass = this.equals(received, wanted, [this.utils.iterableEquality, this.utils.subsetEquality]);
    return {
      pass,
      message: () => `${this.utils.matcherHint('toMatchBody')}\n\n${this.utils.diff(wanted, received) ?? ''}`,
    };
  },
});
