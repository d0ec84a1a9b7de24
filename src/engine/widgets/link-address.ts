/**
 * What a person types as a link's address, made into one a page may carry: a web address
 * (`example.com` → `https://example.com`), an e-mail (`a@b.com` → `mailto:a@b.com`), a phone
 * (`tel:`), or a path or anchor on the same site (`/about`, `#prices`). Anything else — a
 * `javascript:` or `data:` address above all — is null: the dialog refuses it, as the server's
 * sanitiser would drop it.
 */
const ALLOWED_SCHEME = /^(https?|mailto|tel):/i
const ANY_SCHEME = /^[a-z][a-z0-9+.-]*:/i
const EMAIL = /^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/

export function linkAddress(typed: string): string | null {
  const text = typed.trim()
  if (text === '' || /\s/.test(text)) return null
  if (text.startsWith('/') || text.startsWith('#')) return text.startsWith('//') ? null : text
  if (EMAIL.test(text) && !ANY_SCHEME.test(text)) return `mailto:${text}`
  const address = ANY_SCHEME.test(text) ? text : `https://${text}`
  if (!ALLOWED_SCHEME.test(address)) return null
  // A web address names a host with a dot: `https://` alone or a lone word is a typo here.
  if (/^https?:/i.test(address) && !hostOf(address)?.includes('.')) return null
  return address
}

function hostOf(address: string): string | null {
  try {
    return new URL(address).hostname
  } catch {
    return null
  }
}
