// Every screen of the dashboard: its path under /app/, its title in the navigation, and the permission
// that shows it there (the API still decides; a screen opened without it explains the refusal).
import type { FunctionComponent } from 'preact'
import { ApiKeys } from './pages/api-keys.tsx'
import { Audit } from './pages/audit.tsx'
import { Contacts } from './pages/contacts.tsx'
import { Live } from './pages/live.tsx'
import { Reports } from './pages/reports.tsx'
import { Security } from './pages/security.tsx'
import { Tickets } from './pages/tickets.tsx'
import { Users } from './pages/users.tsx'
import { Webhooks } from './pages/webhooks.tsx'

export interface ScreenProps {
  /** What follows the screen's path: '' for the list, '/tkt_…' for one record. */
  rest: string
}

export interface Screen {
  path: string
  title: string
  /** Shown in the navigation only to roles with this permission; undefined: to everyone. */
  permission?: string
  view: FunctionComponent<ScreenProps>
}

export const SCREENS: Screen[] = [
  { path: '/tickets', title: 'Tickets', permission: 'ticket:read', view: Tickets },
  { path: '/contacts', title: 'Contacts', permission: 'contact:read', view: Contacts },
  { path: '/live', title: 'Live', permission: 'report:read', view: Live },
  { path: '/reports', title: 'Reports', permission: 'report:read', view: Reports },
  { path: '/webhooks', title: 'Webhooks', permission: 'webhook:read', view: Webhooks },
  { path: '/users', title: 'Users and roles', permission: 'user:read', view: Users },
  { path: '/api-keys', title: 'API keys', view: ApiKeys },
  { path: '/security', title: 'Security', view: Security },
  { path: '/audit', title: 'Audit log', permission: 'audit:read', view: Audit },
]

/** The screen a dashboard path belongs to, and the rest of the path. */
export function screenOf(path: string): { screen: Screen; rest: string } | undefined {
  for (const screen of SCREENS)
    if (path === screen.path || path.startsWith(`${screen.path}/`)) return { screen, rest: path.slice(screen.path.length) }
  return undefined
}
