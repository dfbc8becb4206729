import { GroupedInserts } from './grouped-inserts';

/** A statement that takes what `free` allows and remembers each group it was sent, answered when `answer` is called. */
function statement(free: (key: string) => boolean) {
  const groups: string[][] = [];
  const answers: (() => void)[] = [];
  const send = (rows: string[]) =>
    new Promise<string[]>((resolve) => {
      groups.push(rows);
      answers.push(() => resolve(rows.filter(free)));
    });
  const answerNext = async () => {
    await new Promise((next) => setImmediate(next));
    answers.shift()!();
  };
  return { send, groups, answerNext };
}

describe('GroupedInserts', () => {
  it('sends the rows that arrive while a group is under way together, in the next group', async () => {
    const { send, groups, answerNext } = statement(() => true);
    const inserts = new GroupedInserts<string>(send, (row) => row, 100);
    const first = inserts.insert('a');
    await new Promise((next) => setImmediate(next));
    const later = ['b', 'c', 'd'].map((row) => inserts.insert(row));
    await answerNext();
    await expect(first).resolves.toBe(true);
    await answerNext();
    await expect(Promise.all(later)).resolves.toStrictEqual([true, true, true]);
    expect(groups).toStrictEqual([['a'], ['b', 'c', 'd']]);
  });

  it('tells each row whether its key was free: of one key twice in a group, the first only, which is sent once', async () => {
    const { send, groups, answerNext } = statement((key) => key !== 'spent');
    const inserts = new GroupedInserts<string>(send, (row) => row, 100);
    const answered = ['a', 'spent', 'a', 'b'].map((row) => inserts.insert(row));
    await answerNext();
    await expect(Promise.all(answered)).resolves.toStrictEqual([true, false, false, true]);
    expect(groups).toStrictEqual([['a', 'b', 'spent']]);
  });

  it("sends a group's rows in the order of their keys, whatever their arrival: two instances' groups never wait for each other", async () => {
    const { send, groups, answerNext } = statement(() => true);
    const inserts = new GroupedInserts<string>(send, (row) => row, 100);
    const answered = ['c', 'a', 'b'].map((row) => inserts.insert(row));
    await answerNext();
    await expect(Promise.all(answered)).resolves.toStrictEqual([true, true, true]);
    expect(groups).toStrictEqual([['a', 'b', 'c']]);
  });

  it('sends at most its most rows a group, and the rest in the next', async () => {
    const { send, groups, answerNext } = statement(() => true);
    const inserts = new GroupedInserts<string>(send, (row) => row, 2);
    const answered = ['a', 'b', 'c'].map((row) => inserts.insert(row));
    await answerNext();
    await answerNext();
    await expect(Promise.all(answered)).resolves.toStrictEqual([true, true, true]);
    expect(groups).toStrictEqual([['a', 'b'], ['c']]);
  });

  it("fails the rows of a group whose statement failed, and sends the next group's", async () => {
    let sent = 0;
    const inserts = new GroupedInserts<string>(
      async (rows) => {
        if (sent++ === 0) throw new Error('disk full');
        return rows;
      },
      (row) => row,
      100,
    );
    const failed = [inserts.insert('a'), inserts.insert('b')];
    await expect(Promise.allSettled(failed)).resolves.toStrictEqual([
      { status: 'rejected', reason: new Error('disk full') },
      { status: 'rejected', reason: new Error('disk full') },
    ]);
    await expect(inserts.insert('c')).resolves.toBe(true);
  });
});
