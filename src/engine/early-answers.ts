/**
 * The GETs the page's inline script (index.html) started with the HTML, before any of the
 * app's code arrived — the session check, the menu, the list of the address: the server
 * names them for the page (server/http/app-page.ts). The first identical call (same
 * address and language, a token or none as then) takes the answer instead of asking again.
 * They were asked with the token stored at the page's load: the token sign-in renews it for
 * the same user, and the end of that session drops them (src/auth/session.ts).
 *
 * An answer nobody takes is let go — its body cancelled, so that no connection stays open
 * for it: all of them once the app asks in another language (the signed-in user's settings
 * chose another), and whatever is left a while after the page loaded (the data may have
 * changed since).
 */
type EarlyAnswers = { token: string | null; language: string; at: number; answers: Record<string, Promise<Response> | undefined> }

const MAX_AGE_MS = 20_000

const holder = globalThis as { __early?: EarlyAnswers }

/** Lets an answer go without reading it. */
export function discardAnswer(answer: Promise<Response> | Response | undefined): void {
  void Promise.resolve(answer)
    .then((response) => response?.body?.cancel())
    .catch(() => {})
}

/** The session they were asked for has ended, or they can no longer be used: none of them is anyone's now. */
export function dropEarlyAnswers(): void {
  const early = holder.__early
  if (!early) return
  delete holder.__early
  for (const answer of Object.values(early.answers)) discardAnswer(answer)
}

/** `url`: the call's address as the HTTP client writes it (schema/kit/request-url.ts); worked out only while there are answers to take. */
export function takeEarlyAnswer(url: string | (() => string), token: string | null, language: string): Promise<Response> | undefined {
  const early = holder.__early
  if (!early) return undefined
  if ((early.token === null) !== (token === null) || early.language !== language || Date.now() - early.at > MAX_AGE_MS) {
    dropEarlyAnswers()
    return undefined
  }
  const address = typeof url === 'string' ? url : url()
  const answer = early.answers[address]
  delete early.answers[address]
  return answer
}

// Whatever is left untaken once the page has had its time.
if (holder.__early) setTimeout(dropEarlyAnswers, Math.max(0, MAX_AGE_MS - (Date.now() - holder.__early.at)))
