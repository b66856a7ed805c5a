// The text helpers of the invoice PDF: what the standard Helvetica font (WinAnsi encoding) can show —
// an accented letter outside it loses its accent, anything else becomes "?" — lines wrapped to a
// width, dates as YYYY-MM-DD (UTC), and a basis-point rate as a percentage from its integer digits.
import type { PDFFont } from 'pdf-lib'

const COMBINING_MARKS = /[\u0300-\u036f]/g

/** `text` as the font can draw it: each character it lacks replaced by its unaccented letters, or "?". */
export function winAnsiText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet())
  const ok = (c: string) => supported.has(c.codePointAt(0)!)
  let out = ''
  for (const c of text.normalize('NFC').replace(/[\t\r\n]+/g, ' ')) {
    if (ok(c)) out += c
    else {
      const bare = c.normalize('NFKD').replace(COMBINING_MARKS, '')
      out += bare !== '' && [...bare].every(ok) ? bare : '?'
    }
  }
  return out
}

/** `text` cut into lines no wider than `width` at `size` (at spaces; a word wider than the line is cut). */
export function wrapText(font: PDFFont, text: string, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`
    if (fits(candidate)) {
      line = candidate
      continue
    }
    if (line !== '') lines.push(line)
    let rest = word
    while (!fits(rest)) {
      let cut = rest.length - 1
      while (cut > 1 && !fits(rest.slice(0, cut))) cut--
      lines.push(rest.slice(0, cut))
      rest = rest.slice(cut)
    }
    line = rest
  }
  if (line !== '' || lines.length === 0) lines.push(line)
  return lines
}

/** `2026-01-31` (UTC). */
export function pdfDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** A rate in basis points as a percentage, from integers: 2000 -> `20%`, 1950 -> `19.5%`, 825 -> `8.25%`. */
export function percentOfBps(bps: number): string {
  const whole = Math.trunc(bps / 100)
  const fraction = String(Math.abs(bps % 100))
    .padStart(2, '0')
    .replace(/0+$/, '')
  return `${whole}${fraction === '' ? '' : `.${fraction}`}%`
}
