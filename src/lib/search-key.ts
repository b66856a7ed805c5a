// searchKey: text folded for sorting and prefix search the way people expect, in any script:
// without regard to case or accents ("Émile" sorts and matches like "emile"). SQLite folds only ASCII.

export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}
