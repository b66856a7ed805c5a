// Pages that only say something: an error that cannot go back to the application, or "signed out".
import { escapeHtml, layout } from './html.ts'

export function messagePage(title: string, message: string, role: 'alert' | 'status' = 'alert'): string {
  return layout(title, `<p role="${role}">${escapeHtml(message)}</p>`)
}
