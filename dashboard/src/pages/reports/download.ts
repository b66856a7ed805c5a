// Saving a report as CSV: the API answers the same numbers as CSV (`format=csv`); the file is fetched with
// the signed-in token (a plain link could not send it) and saved through a Blob URL and <a download>.
// The page's CSP does not stand in the way: a download is a navigation, which no fetch directive of
// headers.ts governs (connect-src covers the fetch itself, to this origin).

/** Offers `blob` as a file named `name`. */
export function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  // Firefox downloads only from a link in the document.
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken the blob by the next turn; keeping the URL would keep the file in memory.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** A file name for a report of this window: summary-2026-03-01-2026-03-08.csv. */
export function fileName(report: string, from: string, to: string): string {
  return `${report}-${from.slice(0, 10)}-${to.slice(0, 10)}.csv`
}
