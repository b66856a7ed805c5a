// The filename a client gives, made safe to show and to put in a Content-Disposition: the last path
// segment only (either slash), no control or bidirectional-override characters, trimmed of dots and
// spaces at its ends, at most 255 bytes of UTF-8 (the extension kept), and never empty.
export const MAX_FILENAME_BYTES = 255

// C0/C1 controls, and the format characters that make a name display as another (U+202E "evil.txt.exe").
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is removed
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g

export function sanitizeFilename(raw: string | undefined | null, fallback = 'file'): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? ''
  const cleaned = base
    .normalize('NFC')
    .replace(UNSAFE, '')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '')
  return truncate(cleaned === '' ? fallback : cleaned)
}

/** At most MAX_FILENAME_BYTES of UTF-8, cut between characters, the extension kept when it is short. */
function truncate(name: string): string {
  if (Buffer.byteLength(name) <= MAX_FILENAME_BYTES) return name
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
  let budget = MAX_FILENAME_BYTES - Buffer.byteLength(extension)
  let stem = ''
  for (const character of name.slice(0, name.length - extension.length)) {
    budget -= Buffer.byteLength(character)
    if (budget < 0) break
    stem += character
  }
  return stem + extension
}
