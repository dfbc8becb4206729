/** Text made safe for HTML and SVG, in element content and in quoted attributes. */
export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A whole page: its title, its one inline stylesheet (which the pages' Content-Security-Policy allows by hash), a banner and the body. */
export const htmlDocument = (title: string, style: string, banner: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<header>${banner}</header>
<main>
${body}
</main>
</body>
</html>`;

/** The pieces of the server-rendered pages (the cockpit and its services' sections, docs/cockpit.md). */
export type Cell = string | { html: string };
const cell = (value: Cell): string => (typeof value === 'string' ? escapeHtml(value) : value.html);

export const link = (href: string, text: string): Cell => ({ html: `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` });

export function table(headings: string[], rows: Cell[][], empty = 'none yet'): string {
  if (rows.length === 0) return `<p>${escapeHtml(empty)}</p>`;
  return `<table><tr>${headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('')}</tr>${rows.map((row) => `<tr>${row.map((value) => `<td>${cell(value)}</td>`).join('')}</tr>`).join('')}</table>`;
}

/** A form that POSTs to the cockpit (works without JavaScript); `fields` is its inner HTML. */
export const form = (action: string, fields: string): string =>
  `<form class="inline" method="post" action="${escapeHtml(action)}">${fields}</form>`;
export const input = (name: string, label: string, value = '', type = 'text'): string =>
  `<label>${escapeHtml(label)} <input type="${type}" name="${escapeHtml(name)}" value="${escapeHtml(value)}" aria-label="${escapeHtml(label)}"></label>`;
export const button = (text: string, name?: string, value?: string): string =>
  `<button${name ? ` name="${escapeHtml(name)}" value="${escapeHtml(value ?? '')}"` : ''}>${escapeHtml(text)}</button>`;

export const section = (title: string, body: string, id?: string): string =>
  `<section${id ? ` id="${escapeHtml(id)}"` : ''}><h2>${escapeHtml(title)}</h2>${body}</section>`;

/** A status as the pages show it. */
export const status = (value: string): Cell => ({ html: `<span class="status">${escapeHtml(value)}</span>` });

/** How many rows a section of the cockpit's overview lists, newest first. */
export const LISTED = 50;

/** A query or form value as the pages use it: a repeated or missing one counts as empty. */
export const formValue = (value: unknown): string => (typeof value === 'string' ? value : '');
