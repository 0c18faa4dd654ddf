import { randomBytes } from 'node:crypto'

/** Sessions live for 12 hours. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000

export interface Session {
  readonly token: string
  readonly userId: string
  readonly expiresAt: number
}

/** Mint a new session for a user. */
export function createSession(userId: string, now = Date.now()): Session {
  return { token: randomBytes(32).toString('base64url'), userId, expiresAt: now + SESSION_TTL_MS }
}

/** True once the session has run past its expiry. */
export function isExpired(session: Session, now = Date.now()): boolean {
  return now >= session.expiresAt
}
