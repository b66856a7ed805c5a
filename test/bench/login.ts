// Login timing: an unknown e-mail must cost what a wrong password costs (no account enumeration by
// timing). Medians of sequential logins through the real app, in one run.
import { makeTestApp } from '../helpers/app.ts'
import { PASSWORD, seedOrganization } from '../helpers/seed.ts'

export interface LoginTimings {
  wrongPasswordMs: number
  unknownEmailMs: number
  successMs: number
}

export async function benchLogin(rounds = Number(process.env.BENCH_LOGIN_ROUNDS ?? 40)): Promise<LoginTimings> {
  const app = await makeTestApp({ LOG_LEVEL: 'error' })
  try {
    await seedOrganization(app)
    const attempt = async (email: string, password: string, status: number) => {
      const started = performance.now()
      const response = await app.request('/api/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      if (response.status !== status) throw new Error(`login ${email}: expected ${status}, got ${response.status}`)
      return performance.now() - started
    }
    const samples: Record<keyof LoginTimings, number[]> = { wrongPasswordMs: [], unknownEmailMs: [], successMs: [] }
    // Interleaved, so drift on a shared machine affects all three alike.
    for (let i = 0; i < rounds; i++) {
      samples.wrongPasswordMs.push(await attempt('admin@acme.test', 'wrong password', 401))
      samples.unknownEmailMs.push(await attempt(`nobody${i}@acme.test`, PASSWORD, 401))
      samples.successMs.push(await attempt('admin@acme.test', PASSWORD, 200))
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    return {
      wrongPasswordMs: median(samples.wrongPasswordMs),
      unknownEmailMs: median(samples.unknownEmailMs),
      successMs: median(samples.successMs),
    }
  } finally {
    await app.close()
  }
}
