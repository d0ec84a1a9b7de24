import type { FastifyRequest } from 'fastify'
import type { Message } from '../../schema/kit'
import { BusinessError, ValidationError } from './errors'

/**
 * PostgreSQL cannot hold U+0000 in text or jsonb (it refuses the statement: 22021, 22P05), so a
 * NUL anywhere in what a request sends is bad input. It is refused here, once, for every route
 * behind the API's guard — the engine's and every module's bespoke route, a report's parameters,
 * a lookup's path — before any of them reads the request (`refuseUnstorableInput`, a preHandler
 * hook), and for multipart bodies as they are read (uploads.ts `readBody`).
 */
const NUL = '\u0000'

type Path = Array<string | number>

/**
 * Where the first NUL of a value is: the path to the string that holds it (`['items', 2,
 * 'details']`), to the object whose key holds it (the key is not part of the path), or
 * undefined. Walked with an explicit stack: a body nested thousands of levels deep is read
 * without recursion.
 */
export function nulPathOf(value: unknown): { path: Path; isInKey: boolean } | undefined {
  // Each node names its parent, so the path is made once, for the NUL found, not for every value.
  type Node = { value: unknown; key?: string | number; parent?: Node }
  const pathTo = (node: Node): Path => {
    const path: Path = []
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) path.unshift(n.key)
    return path
  }
  const pending: Node[] = [{ value }]
  while (pending.length > 0) {
    const node = pending.pop()!
    const v = node.value
    if (typeof v === 'string') {
      if (v.includes(NUL)) return { path: pathTo(node), isInKey: false }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], key: i, parent: node })
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v)
      if (entries.some(([key]) => key.includes(NUL))) return { path: pathTo(node), isInKey: true }
      for (let i = entries.length - 1; i >= 0; i--) pending.push({ value: entries[i]![1], key: entries[i]![0], parent: node })
    }
  }
  return undefined
}

const NUL_MESSAGE: Message = { key: 'validation.nul_character' }

/**
 * A body's NUL as a field map, keyed as the engine keys what it judges: the field (`details`,
 * a JSON field whatever holds the NUL inside it), or a document line's field (`items.2.details`).
 */
export function refuseNulInBody(body: unknown): void {
  const found = nulPathOf(body)
  if (!found) return
  const [field, index, name] = found.path
  const isLineField = Array.isArray((body as Record<string, unknown>)[String(field)]) && typeof index === 'number' && typeof name === 'string'
  const key = field === undefined ? 'non_field_errors' : isLineField ? `${field}.${index}.${name}` : String(field)
  throw new ValidationError({ [key]: [NUL_MESSAGE] })
}

/** A query's or a path's NUL as a `{detail}` naming the parameter. */
function refuseNulInParameters(parameters: unknown): void {
  const found = nulPathOf(parameters)
  if (!found) return
  const name = found.isInKey ? Object.keys(parameters as object).find((k) => k.includes(NUL))! : String(found.path[0] ?? '')
  throw new BusinessError({ key: 'detail.nul_parameter', params: { param: name.replaceAll(NUL, '\uFFFD').slice(0, 100) } })
}

/** The API's guard on what a request sends: its path parameters, query and JSON body hold no NUL. */
export async function refuseUnstorableInput(request: FastifyRequest): Promise<void> {
  refuseNulInParameters(request.params)
  refuseNulInParameters(request.query)
  // A multipart body is read by its route (uploads.ts `readBody`), which refuses the same.
  if (!request.isMultipart()) refuseNulInBody(request.body)
}
