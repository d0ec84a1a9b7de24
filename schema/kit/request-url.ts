/**
 * A GET's address as the HTTP client writes it: the path, then the defined parameters in
 * their order. The server names the requests a page starts early with it, and the client
 * matches them on it (src/engine/early-answers.ts); nothing else here, so the client's
 * entry does not carry the registry's kit.
 */
export function requestUrlOf(path: string, searchParams: Readonly<Record<string, string | number | undefined>> = {}): string {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(searchParams)) if (value !== undefined) query.append(key, String(value))
  const text = query.toString()
  return `/${path.replace(/^\/+/, '')}${text ? `?${text}` : ''}`
}
