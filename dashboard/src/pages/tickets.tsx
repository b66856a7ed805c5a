// Placeholder until the screen is built in this issue.
import type { ScreenProps } from '../screens.ts'
import { Page } from '../ui.tsx'

export function Tickets(_: ScreenProps) {
  return <Page title="Tickets">{null}</Page>
}
