/** A row waiting for its group's statement, and whether its key was free. */
interface Waiting<T> {
  row: T;
  key: string;
  resolve: (inserted: boolean) => void;
  reject: (reason: unknown) => void;
}

/**
 * Group commit of single inserts made outside any write: the rows that arrive while one group's
 * statement is under way go together in the next, one statement that leaves out a row whose key
 * is taken and says which it inserted. Each caller then hears whether its own key was free: of
 * one key twice in a group, the first. A signed GET's spend of its X-Request-ID (Store.oweInsertUnique;
 * docs/tpp-identity.md, "What a check costs").
 */
export class GroupedInserts<T> {
  private waiting: Waiting<T>[] = [];
  private sent: Promise<void> = Promise.resolve();

  /** `send` inserts the rows whose key is free, in one statement, and answers the keys it inserted; a group holds at most `most` rows. */
  constructor(
    private readonly send: (rows: T[]) => Promise<string[]>,
    private readonly keyOf: (row: T) => string,
    private readonly most: number,
  ) {}

  /** Resolves true once `row` is committed, false where its key was taken; rejects where the statement failed. */
  insert(row: T): Promise<boolean> {
    return new Promise((resolve, reject) => {
      // The first row of a group sends it, once the group before it is answered.
      if (this.waiting.push({ row, key: this.keyOf(row), resolve, reject }) === 1) this.sent = this.sent.then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    const group = this.waiting.splice(0, this.most);
    if (this.waiting.length) this.sent = this.sent.then(() => this.flush());
    const first = new Map<string, Waiting<T>>();
    for (const waiting of group) if (!first.has(waiting.key)) first.set(waiting.key, waiting);
    // In the order of their keys: two instances' groups then take the keys they share in one order, and never wait for each other.
    const rows = [...first.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(({ row }) => row);
    let inserted: Set<string>;
    try {
      inserted = new Set(await this.send(rows));
    } catch (error) {
      for (const { reject } of group) reject(error);
      return;
    }
    for (const waiting of group) waiting.resolve(first.get(waiting.key) === waiting && inserted.has(waiting.key));
  }
}
