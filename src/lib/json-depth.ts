// How deeply a JSON text nests, measured on the text before it is parsed: a small body nested tens of
// thousands deep costs the parser, the validators and every later walk far more than its size suggests.

/** The largest nesting a JSON body may have: `{"a":{"b":1}}` nests 2 deep. */
export const MAX_JSON_DEPTH = 64

const OPEN_OBJECT = 0x7b // {
const OPEN_ARRAY = 0x5b // [
const CLOSE_OBJECT = 0x7d // }
const CLOSE_ARRAY = 0x5d // ]
const QUOTE = 0x22 // "
const BACKSLASH = 0x5c // \

/**
 * True when `text` opens more than `max` objects or arrays inside one another, counting only brackets
 * outside strings. One pass over the text, whether it is valid JSON or not (the parser says that after).
 */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  // Fewer brackets than the bound cannot nest past it: most bodies stop at this first scan.
  if (countOpenings(text, max) <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--
  }
  return false
}

/** The number of `{` and `[` in the text, strings included, counted up to just past `max`. */
function countOpenings(text: string, max: number): number {
  let count = 0
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1 && count <= max; at = text.indexOf(bracket, at + 1)) count++
  }
  return count
}
