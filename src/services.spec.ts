import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE, type MessageName, refusal, registerMessages } from './common/error-catalogue';
import { SERVICES } from './services';

describe('the registered services', () => {
  it('each list their messages on a page of docs/, row for row, under numbers no other row takes', () => {
    const docs = join(__dirname, '..', 'docs');
    const listed = readdirSync(docs)
      .filter((file) => file.endsWith('.md') && file !== 'errors.md')
      .flatMap((file) =>
        [...readFileSync(join(docs, file), 'utf8').matchAll(/^\| (XS2A\d{3}E) \| (\d{3}) \| ([A-Z_]+) \|/gm)].map(
          ([, id, status, code]) => [id, Number(status), code],
        ),
      );
    const registered = SERVICES.flatMap(({ messages = {} }) =>
      Object.entries(messages).map(([id, { status, code }]) => [id, status, code]),
    );
    for (const row of registered) expect(listed.filter(([id]) => id === row[0])).toEqual([row]);
    const numbers = [...Object.keys(ERROR_CATALOGUE), ...registered.map(([id]) => id)];
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('refuse with their messages by name, each name once in the catalogue', () => {
    const rows = SERVICES.flatMap(({ messages = {} }) => Object.entries(messages));
    const names = [...Object.values(ERROR_CATALOGUE), ...rows.map(([, row]) => row)].map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
    for (const { messages = {} } of SERVICES) registerMessages(messages);
    // Each name as the service declared it (ServiceMessages): the code refuses with it.
    for (const [id, { name, status }] of rows) {
      const refused = refusal(name as MessageName, 'why');
      expect([refused.details[0].messageId, refused.status()]).toEqual([id, status]);
    }
  });
});
