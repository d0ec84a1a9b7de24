/**
 * The GETs the page's inline script (index.html) started with the HTML, before any of the
 * app's code arrived — the session check, the menu, the list of the address: the server
 * names them for the page (server/http/app-page.ts). The first identical call (same
 * address and language, a token or none as then) takes the answer instead of asking again;
 * an answer left untaken for a while is not used (the data may have changed since). They
 * were asked with the token stored at the page's load: the token sign-in renews it for the
 * same user, and the end of that session drops them (src/auth/session.ts).
 */
type EarlyAnswers = { token: string | null; language: string; at: number; answers: Record<string, Promise<Response> | undefined> }

const MAX_AGE_MS = 20_000

export function takeEarlyAnswer(url: string, token: string | null, language: string): Promise<Response> | undefined {
  const early = (globalThis as { __early?: EarlyAnswers }).__early
  if (!early || (early.token === null) !== (token === null) || early.language !== language) return undefined
  const answer = early.answers[url]
  if (!answer) return undefined
  delete early.answers[url]
  return Date.now() - early.at <= MAX_AGE_MS ? answer : undefined
}

/** The session they were asked for has ended: none of them is anyone's now. */
export function dropEarlyAnswers(): void {
  delete (globalThis as { __early?: EarlyAnswers }).__early
}
