import type { OpenAPIObject } from '@nestjs/swagger';
import type { AnswerStyle } from '../common/answer-style';
import { answerOf, DomainError, messageRows } from '../common/error-catalogue';
import { MessageList, messageListOf } from './berlin-group-answers';
import { renderError } from './berlin-group-exception.filter';

type Response = { description?: string; content?: Record<string, { schema?: { $ref?: string }; examples?: object }> };

const CODE = /\b[A-Z][A-Z_]{3,}[A-Z]\b/g;
const NUMBER = /\bXS2A\d{3}E\b/g;

/**
 * Each error answer of the served document shows the messages it stands for (docs/errors.md): an
 * example a catalogue message of its status whose number its description names, else whose code
 * it names, else every one of that status; each as the filter renders it in the profile, with its
 * number and when it is answered. A status no message answers in the profile is not listed. Only
 * Berlin Group's error body: the OAuth endpoints' own bodies keep theirs.
 */
export function documentErrorExamples(document: OpenAPIObject, profile: AnswerStyle, lists: readonly MessageList[]): void {
  const catalogue = messageRows().map(([id, row]) => ({ id, row, ...answerOf(id, profile) }));
  const examples = ((document.components ??= {}).examples ??= {}) as Record<string, object>;
  for (const [path, item] of Object.entries(document.paths)) {
    const list = messageListOf(lists, path, profile === 'berlin-group');
    for (const operation of Object.values(item) as { responses?: Record<string, Response> }[]) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (Number(status) < 400 || !media?.schema?.$ref?.endsWith('/TppErrorResponse')) continue;
        const numbers = new Set(response.description?.match(NUMBER) ?? []);
        const named = new Set(response.description?.match(CODE) ?? []);
        const rows = catalogue.filter((message) => message.status === Number(status));
        const shown =
          numbers.size > 0
            ? rows.filter(({ id }) => numbers.has(id))
            : rows.some(({ code }) => named.has(code))
              ? rows.filter(({ code }) => named.has(code))
              : rows;
        if (shown.length === 0) {
          delete operation.responses![status]; // no message answers it in this profile (413 in Berlin Group's: 400)
          continue;
        }
        media.examples = Object.fromEntries(
          shown.map(({ id, row, code }) => {
            // One component an example, referred to from every response that shows it.
            const name = list === 'tppMessages' ? id : `${id}-${list}`;
            const when = row.when.replace(/`/g, '');
            examples[name] ??= { summary: when, value: renderError(new DomainError({ messageId: id, description: when }), profile, list) };
            return [`${code} ${id}`, { $ref: `#/components/examples/${name}` }];
          }),
        );
      }
    }
  }
}
