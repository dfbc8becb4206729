import { button, escapeHtml as escape, htmlDocument, table } from '../common/html';
import type { AnsweredRequest } from '../http/request-log';
import type { SandboxEvent } from '../events/sandbox-event.entity';

/** The cockpit's only stylesheet, inline; its Content-Security-Policy allows exactly this text by its hash. */
export const COCKPIT_STYLE = `
  body { font-family: system-ui, sans-serif; background: #f3f5f8; margin: 0; color: #1c2733; font-size: 14px; }
  header { background: #14213d; color: #fff; padding: 10px 24px; display: flex; gap: 24px; align-items: baseline; }
  header a { color: #cfe0ff; } header strong { font-size: 1.05rem; }
  main { padding: 16px 24px; }
  section { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px #0002; padding: 12px 16px; margin-bottom: 16px; overflow-x: auto; }
  h1 { font-size: 1.25rem; } h2 { font-size: 1.05rem; margin: 4px 0 8px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e3e8ee; vertical-align: top; }
  th { color: #52606d; font-weight: 500; }
  form.inline { display: inline-flex; gap: 6px; align-items: center; margin: 4px 12px 4px 0; }
  .status { font-family: monospace; } .error { color: #a01c1c; font-family: monospace; }
  .message { padding: 8px 12px; border-radius: 6px; background: #e7f0ff; margin-bottom: 12px; }
  pre { background: #f6f8fa; padding: 8px; overflow-x: auto; }
`;

/** A GET filter over a list: a select per field. */
export function filter(action: string, selects: { name: string; label: string; options: string[]; value: string }[]): string {
  const fields = selects
    .map(
      ({ name, label, options, value }) =>
        `<label>${escape(label)} <select name="${escape(name)}">${['', ...options].map((option) => `<option${option === value ? ' selected' : ''}>${escape(option)}</option>`).join('')}</select></label>`,
    )
    .join(' ');
  return `<form class="inline" method="get" action="${escape(action)}">${fields} ${button('Filter')}</form>`;
}

export const layout = (title: string, body: string, message?: string): string =>
  htmlDocument(
    `${title} - PSD2 Sandbox cockpit`,
    COCKPIT_STYLE,
    '<strong>PSD2 Sandbox cockpit</strong><a href="/cockpit">Overview</a><a href="/cockpit/requests">Requests</a><a href="/cockpit/world">Your world</a><a href="/docs">API</a>',
    `<h1>${escape(title)}</h1>\n${message ? `<p class="message" role="status">${escape(message)}</p>` : ''}\n${body}`,
  );

export function requestTable(requests: AnsweredRequest[]): string {
  return table(
    ['time', 'method', 'path', 'status', 'error', 'X-Request-ID', 'certificate'],
    requests.map((entry) => [
      entry.at,
      entry.method,
      entry.path,
      String(entry.status),
      { html: `<span class="error">${escape(entry.errorCode ?? '')}</span>` },
      entry.requestId,
      entry.certificate ?? '',
    ]),
    'no request answered yet',
  );
}

export function timeline(events: SandboxEvent[]): string {
  return table(
    ['real time', 'sandbox date', 'kind', 'resource', 'from → to', 'event', 'PSU, channel', 'cause'],
    events.map((event) => [
      event.at,
      event.sandboxDate,
      event.kind,
      event.resourceId,
      { html: `<span class="status">${escape(event.fromStatus ?? '')} → ${escape(event.toStatus)}</span>` },
      event.event,
      [event.psuId, event.channel].filter(Boolean).join(', '),
      event.cause,
    ]),
  );
}
