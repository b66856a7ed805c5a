// A headless Chromium context that may reach one origin only (any other request is refused and listed)
// and that reports every Content-Security-Policy violation as a console error.
import { existsSync } from 'node:fs'
import type { Browser, BrowserContext } from 'playwright-core'

export const CHROMIUM =
  Bun.which('chromium') ?? Bun.which('chromium-browser') ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined)

/** `ignoreBlocked`: blocked URIs the page is expected to try (and do without). */
export async function offlineContext(
  browser: Browser,
  origin: string,
  refused: string[],
  ignoreBlocked: string[] = [],
): Promise<BrowserContext> {
  const context = await browser.newContext()
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (new URL(url).origin === origin) return route.continue()
    refused.push(url)
    return route.abort('internetdisconnected')
  })
  await context.addInitScript(`
    document.addEventListener('securitypolicyviolation', (event) => {
      if (${JSON.stringify(ignoreBlocked)}.includes(event.blockedURI)) return
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI + ' at ' + event.sourceFile + ':' + event.lineNumber)
    })
  `)
  return context
}
