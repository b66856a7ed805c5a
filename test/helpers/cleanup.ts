// Folders made once per `bun test` process (the compiled binary, the template database) and removed
// when the whole run ends: bun test fires no process 'exit' event, so test/setup.ts removes them in
// a global afterAll.
import { rmSync } from 'node:fs'

const folders = new Set<string>()
const stoppers: Array<() => Promise<void>> = []

export function removeAtEnd(folder: string): void {
  folders.add(folder)
}

/** A server started once per run (a throwaway PostgreSQL), stopped at the end. */
export function stopAtEnd(stop: () => Promise<void>): void {
  stoppers.push(stop)
}

export async function removeAll(): Promise<void> {
  for (const stop of stoppers.splice(0)) await stop().catch(() => {})
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  folders.clear()
}
