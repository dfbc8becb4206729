/** Text made safe for HTML and SVG, in element content and in quoted attributes. */
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

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
