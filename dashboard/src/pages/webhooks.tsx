// The Webhooks screen: the list at /app/webhooks, registering at /app/webhooks/new, one webhook's page
// (settings, actions, test send, recovery, delivery log) at /app/webhooks/<id>.
import type { ScreenProps } from '../screens.ts'
import { NewWebhook } from './webhooks/create.tsx'
import { WebhookDetail } from './webhooks/detail.tsx'
import { WebhookList } from './webhooks/list.tsx'

export function Webhooks({ rest }: ScreenProps) {
  const id = rest.replace(/^\/+|\/+$/g, '')
  if (id === '') return <WebhookList />
  if (id === 'new') return <NewWebhook />
  // Keyed: another webhook's page starts with its own state.
  return <WebhookDetail key={id} id={decodeURIComponent(id)} />
}
