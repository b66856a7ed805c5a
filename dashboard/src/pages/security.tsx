// Placeholder until the screen is built in this issue.
import type { ScreenProps } from '../screens.ts'
import { Page } from '../ui.tsx'

export function Security(_: ScreenProps) {
  return <Page title="Security">{null}</Page>
}
