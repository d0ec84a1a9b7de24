import { apiRequest } from '../engine/api'
import type { LoginAnswer } from './session'

export const LOGIN_PATH = '/user/api/v1/user/login/'
export const DEMO_CREDENTIALS_PATH = '/api/auth/demo-credentials'

export type Credentials = { email: string; password: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export async function login(credentials: Credentials): Promise<LoginAnswer> {
  const body = await apiRequest(LOGIN_PATH, { method: 'post', json: credentials, isLogin: true })
  if (!isRecord(body) || typeof body.access !== 'string' || typeof body.id !== 'number') throw new Error('Unexpected login answer')
  return {
    access: body.access,
    id: body.id,
    email: typeof body.email === 'string' ? body.email : credentials.email,
    username: typeof body.username === 'string' ? body.username : null,
    image: typeof body.image === 'string' ? body.image : null,
    role: typeof body.role === 'string' ? body.role : null,
    is_admin: body.is_admin === true,
  }
}

/** Demo mode only (spec §5: the form is prefilled); any failure means "no prefill". */
export async function fetchDemoCredentials(): Promise<Credentials | null> {
  try {
    const body = await apiRequest(DEMO_CREDENTIALS_PATH, { isLogin: true })
    if (isRecord(body) && typeof body.email === 'string' && typeof body.password === 'string') return { email: body.email, password: body.password }
  } catch {
    // Not in demo mode.
  }
  return null
}
