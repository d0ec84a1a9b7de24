// The zod validators live in './validators' and are imported from there, not re-exported:
// screens that only list rows must not load zod.
export * as f from './fields'
export type { Field, FieldKind, Widget, Cell, Presence, ValueOf, Json, OnDelete, SqlColumn, MessageRule, FieldMessages } from './fields'
export { parseDecimal, normalizePhone } from './fields'
export { defineEntity, actions, genericRoutes, routeAction, storageOf, rootOf, readableFields } from './entity'
export type { Entity, EntityConfig, AnyField, Fields, Action, InputOf, ValuesOf, AuditColumns, ListByRoute, GenericRoute, RouteMode, Merged } from './entity'
export { normalizers, type Normalizer } from './normalize'
export { messageOfIssue, renderMessage, validationKeys, type Message, type ValidationKey, type Translate } from './messages'
