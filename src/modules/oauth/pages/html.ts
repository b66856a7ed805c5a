// The frame of every page of the authorization server: escaping, one small stylesheet (inline, allowed
// by its hash, so the policy needs no 'unsafe-inline'), and the document around a page's content.

/** Text for element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

// Colours chosen for contrast on white: text #1a1a1a (17:1), muted #4a4a4a (8.9:1), error #a1161d
// (7.6:1), buttons white on #1d4ed8 (6.7:1); the focus ring stays the browser's, made thicker.
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:26rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d4da;border-radius:8px}
h1{font-size:1.4rem;margin:0 0 1rem}
p{margin:0 0 1rem}
.muted{color:#4a4a4a}
label{display:block;font-weight:600;margin:0 0 .25rem}
input[type=email],input[type=password],input[type=text]{display:block;width:100%;padding:.6rem;margin:0 0 1rem;font:inherit;border:1px solid #6b7280;border-radius:4px}
button{font:inherit;padding:.6rem 1.2rem;border-radius:4px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8}
button:focus-visible,input:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:.5rem}
.error{color:#a1161d;font-weight:600;border-left:4px solid #a1161d;padding-left:.75rem}
.notice{border-left:4px solid #1d4ed8;padding-left:.75rem}
ul.scopes{padding-left:1.25rem;margin:0 0 1rem}
form.inline{margin-top:1rem}
`.trim()

/** The Content-Security-Policy source of the stylesheet. */
export const STYLE_SOURCE = `'sha256-${new Bun.CryptoHasher('sha256').update(STYLE).digest('base64')}'`

/** A whole document: one <main> with the page's h1 and content. */
export function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Switchboard</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>
`
}

/** The hidden fields of a step's form: the authorization request as received, and the CSRF token. */
export function hiddenFields(fields: ReadonlyArray<readonly [string, string]>): string {
  return fields.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n')
}

/** An error shown with the form: announced by screen readers, and named by the inputs' aria-describedby. */
export function errorBlock(id: string, message: string | undefined): string {
  return message === undefined ? '' : `<p id="${id}" class="error" role="alert">${escapeHtml(message)}</p>`
}
