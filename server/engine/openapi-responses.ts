import { messageFor } from '../i18n'
import { ref, type Schema } from './openapi-schemas'

/** The answers every operation may give, and the helpers that write an operation's own. */
export type MediaType = { schema: Schema; example?: unknown; examples?: Record<string, { summary?: string; value: unknown }>; encoding?: Record<string, { contentType?: string }> }
export type Response = { description: string; content?: Record<string, MediaType>; headers?: Record<string, unknown> } | { $ref: string }

const say = (key: string, params?: Record<string, string>) => messageFor('en', { key, params })

export const json = (schema: Schema, example?: unknown): Record<string, MediaType> => ({ 'application/json': { schema, ...(example !== undefined ? { example } : {}) } })

export const answer = (description: string, schema: Schema, example?: unknown): Response => ({ description, content: json(schema, example) })

const detail = (text: string) => ({ detail: text })

/** components.responses: the errors of every route, in the contract's shapes, with their English words. */
export const errorResponses: Record<string, Response> = {
  BadRequest: {
    description: 'Bad input: a field map `{field: [message]}`, or `{detail}`, in the language of Accept-Language.',
    content: {
      'application/json': {
        schema: { oneOf: [ref('FieldErrors'), ref('Detail')] },
        examples: {
          fields: { summary: 'A field map', value: { name: [say('validation.required', { label: 'field.name' })] } },
          detail: { summary: 'A detail', value: detail(say('detail.json_object')) },
        },
      },
    },
  },
  Unauthorized: { description: 'No valid token: sign in (`POST /user/api/v1/user/login/`) and send `Authorization: Bearer <access>`.', content: json(ref('Detail'), detail(say('detail.no_credentials'))) },
  NotFound: { description: 'No such record (or none the caller may reach).', content: json(ref('Detail'), detail(say('detail.not_found', { model: 'Thana', id: '999' }))) },
  Conflict: { description: 'Refused by the record\'s state: referred to by others, locked by its workflow, changed meanwhile, or an action that does not apply.', content: json(ref('Detail'), detail(say('detail.workflow_locked', { entity: 'entity.order', status: 'option.delivered' }))) },
}

export const errorRef = (name: keyof typeof errorResponses): Response => ({ $ref: `#/components/responses/${name}` })
