// A ticket's comments, oldest first, a page at a time (GET …/comments), and the form that adds one, a
// public reply or an internal note (POST …/comments, ticket:comment).
import { useEffect, useState } from 'preact/hooks'
import { api } from '../../api.ts'
import { ErrorNote, useAction, When } from '../../ui.tsx'
import type { Comment, Ticket } from './labels.ts'
import { type User, useUserName } from './shared.tsx'

export function Comments({ ticket, users, canComment }: { ticket: Ticket; users: User[]; canComment: boolean }) {
  const [comments, setComments] = useState<Comment[]>([])
  const [next, setNext] = useState<string | undefined>()
  const loading = useAction()
  const name = useUserName(users)
  async function load(page_token?: string) {
    const data = await loading.run(() =>
      api().GET('/api/v1/tickets/{id}/comments', {
        params: { path: { id: ticket.id }, query: { sort: 'created_at:asc', page_size: 50, page_token } },
      }),
    )
    if (!data) return
    setComments((previous) => (page_token ? [...previous, ...data.comments] : data.comments))
    setNext(data.next_page_token || undefined)
  }
  useEffect(() => {
    void load()
  }, [ticket.id])
  // A new comment is the last one: shown at once when every earlier page is here, else when paged to.
  const added = (comment: Comment) => next === undefined && setComments((previous) => [...previous, comment])
  return (
    <section aria-labelledby="ticket-comments">
      <h2 id="ticket-comments">Comments</h2>
      <ErrorNote error={loading.error} />
      {!loading.busy && !loading.error && comments.length === 0 && <p class="muted">No comments yet.</p>}
      <ol class="tickets-comments">
        {comments.map((comment) => (
          <li class={comment.public ? '' : 'tickets-internal'}>
            <p class="tickets-comment-head">
              <strong>{name(comment.author_id, 'Unknown')}</strong> · <When at={comment.created_at} /> ·{' '}
              <span>{comment.public ? 'Public reply' : 'Internal note'}</span>
            </p>
            <p class="tickets-text">{comment.body}</p>
          </li>
        ))}
      </ol>
      {next && (
        <button type="button" class="secondary" onClick={() => load(next)} disabled={loading.busy}>
          More comments
        </button>
      )}
      {canComment && <CommentForm ticket={ticket} onAdded={added} />}
    </section>
  )
}

function CommentForm({ ticket, onAdded }: { ticket: Ticket; onAdded: (comment: Comment) => void }) {
  const { busy, error, run } = useAction()
  const [body, setBody] = useState('')
  const [internal, setInternal] = useState(false)
  const [done, setDone] = useState('')
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    setDone('')
    const comment = await run(() =>
      api().POST('/api/v1/tickets/{id}/comments', { params: { path: { id: ticket.id } }, body: { body, public: !internal } }),
    )
    if (!comment) return
    onAdded(comment)
    setBody('')
    setDone(internal ? 'Internal note added.' : 'Comment added.')
  }
  return (
    <form class="tickets-form" onSubmit={submit}>
      <label for="ticket-comment">Add a comment</label>
      <textarea
        id="ticket-comment"
        rows={4}
        required
        value={body}
        onInput={(event) => setBody((event.currentTarget as HTMLTextAreaElement).value)}
      />
      <label class="tickets-check">
        <input type="checkbox" checked={internal} onChange={(event) => setInternal((event.currentTarget as HTMLInputElement).checked)} />
        Internal note (not public)
      </label>
      <ErrorNote error={error} />
      <p role="status" class="tickets-done">
        {done}
      </p>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add comment'}
      </button>
    </form>
  )
}
