// Folders made once per `bun test` process (the compiled binary, the template database) and removed
// when the whole run ends: bun test fires no process 'exit' event, so test/setup.ts removes them in
// a global afterAll.
import { rmSync } from 'node:fs'

const folders = new Set<string>()

export function removeAtEnd(folder: string): void {
  folders.add(folder)
}

export function removeAll(): void {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  folders.clear()
}
