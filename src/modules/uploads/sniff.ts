// What a file is, from its first bytes, never from what the client says: file-type's signatures, then
// valid UTF-8 text (text/plain, or text/csv when the name ends in .csv: both are text, so the name only
// picks between harmless labels), else application/octet-stream. Images also get their size (image-size).
import { fileTypeFromBuffer } from 'file-type'
import { imageSize } from 'image-size'

/** How much of the start of a file is read before deciding: enough for every signature and for an image's header past its metadata. */
export const SNIFF_BYTES = 256 * 1024

export interface Sniffed {
  contentType: string
  width: number | null
  height: number | null
}

/** The type of the file that starts with `head` (its first SNIFF_BYTES, or all of it when `whole`). */
export async function sniffContent(head: Uint8Array, filename: string, whole: boolean): Promise<Sniffed> {
  const detected = head.byteLength === 0 ? undefined : await fileTypeFromBuffer(head)
  if (detected) {
    const size = detected.mime.startsWith('image/') ? dimensionsOf(head) : undefined
    return { contentType: detected.mime, width: size?.width ?? null, height: size?.height ?? null }
  }
  const text = isUtf8Text(head, whole)
  const contentType = text ? (/\.csv$/i.test(filename) ? 'text/csv' : 'text/plain') : 'application/octet-stream'
  return { contentType, width: null, height: null }
}

function dimensionsOf(head: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(head)
    return width > 0 && height > 0 ? { width, height } : undefined
  } catch {
    // Not enough of the header in the first bytes, or a damaged one: the type stands, the size is unknown.
    return undefined
  }
}

/**
 * UTF-8 without NUL or other C0 controls but tab, line feed, form feed and carriage return. Only the head is
 * read: when it is cut, up to three bytes of a character may be missing at its end, which is no error.
 */
function isUtf8Text(head: Uint8Array, whole: boolean): boolean {
  try {
    const decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(head, { stream: !whole })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is looked for
    return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(decoded)
  } catch {
    return false
  }
}
