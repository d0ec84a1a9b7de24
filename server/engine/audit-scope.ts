import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/**
 * Where the writes of a request come from, for their audit rows: the screen the user was on
 * (the browser names it in `X-Screen`) or else the route, and the bulk operation they belong
 * to (`batch`: one bulk update's or delete's rows, undone together). Kept per request in
 * AsyncLocalStorage so every write of the engine and the modules records it without each
 * passing it down.
 */
export type AuditScope = { source?: string; batch?: string }

const scope = new AsyncLocalStorage<AuditScope>()

/** The longest source kept (audit_log.source). */
export const MAX_SOURCE = 300
const SCREEN = /^\/[\w\-./~%:@!$&'()*+,;=?#]*$/

/** The screen the browser names (a path of the app), or the route's method and pattern. */
export function sourceOf(request: FastifyRequest): string {
  const screen = request.headers['x-screen']
  if (typeof screen === 'string' && screen.length <= MAX_SOURCE && SCREEN.test(screen)) return screen
  return `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`.slice(0, MAX_SOURCE)
}

/** An onRequest hook: the request's writes run in its scope. */
export function auditScopeHook(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  scope.run({ source: sourceOf(request) }, done)
}

/** Runs `work` with its audit rows tagged as one batch (a bulk operation undone as one). */
export function inAuditBatch<T>(batch: string, work: () => Promise<T>): Promise<T> {
  return scope.run({ ...scope.getStore(), batch }, work)
}

export const currentAuditScope = (): AuditScope => scope.getStore() ?? {}
