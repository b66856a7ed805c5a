// The Contacts screen: the list and search at /app/contacts, "New contact" at /app/contacts/new, and one
// contact at /app/contacts/<id> (the pieces are in ./contacts/).
import type { ScreenProps } from '../screens.ts'
import { ContactDetail, NewContact } from './contacts/detail.tsx'
import { ContactList } from './contacts/list.tsx'

export function Contacts({ rest }: ScreenProps) {
  const id = decodeURIComponent(rest.replace(/^\/+|\/+$/g, ''))
  if (id === '') return <ContactList />
  if (id === 'new') return <NewContact />
  return <ContactDetail key={id} id={id} />
}
