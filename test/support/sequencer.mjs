import Sequencer from '@jest/test-sequencer';

/**
 * The suites that take a minute or more of one worker (docs/development.md, "Where the time goes"):
 * they start first, so that two workers end together. Jest orders by the durations of a previous run
 * where it has them (a developer's second run) and otherwise by file size, which puts these late.
 */
const LONGEST_FIRST = ['service-removal', 'docs-browser', 'fuzz', 'built-server', 'access', 'conformance', 'openapi-lint', 'static-checks'];

const rank = (test) => {
  const index = LONGEST_FIRST.findIndex((name) => test.path.endsWith(`/${name}.e2e-spec.ts`) || test.path.endsWith(`/${name}.spec.ts`));
  return index === -1 ? LONGEST_FIRST.length : index;
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const position = new Map(sorted.map((test, index) => [test, index]));
    return [...sorted].sort((a, b) => rank(a) - rank(b) || position.get(a) - position.get(b));
  }
}

export default LongestFirst;
