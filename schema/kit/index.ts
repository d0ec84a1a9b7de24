// The zod validators live in './validators' and are imported from there, not re-exported:
// screens that only list rows must not load zod.
export * as f from './fields'
export type { Field, FieldKind, Widget, Cell, Presence, ValueOf, Json, OnDelete, SqlColumn, MessageRule, FieldMessages, ComputeInput, LinesSpec, LineInput, TextFormat, Tone } from './fields'
export { parseDecimal, compareDecimals, normalizePhone, readsLeftToRight, MONEY_MAX, MONEY_WHOLE_DIGITS, MAX_LINES, MAX_REFS } from './fields'
export {
  defineEntity, actions, genericRoutes, routeAction, storageOf, rootOf, readableFields, columnFields, lineEntityOf, lineLinkColumn, LINE_POSITION, DEFAULT_NAV_GROUP,
  filterKinds, isFilterable, isRangeKind, isBuiltInRow, isEditableIn, statesAfter, isDeletableRow, asView, treeFieldsOf,
} from './entity'
export type {
  Entity, EntityConfig, AnyField, Fields, Action, InputOf, ValuesOf, AuditColumns, ListByRoute, GenericRoute, RouteMode, Merged,
  Caller, ScopeFilter, Rule, AutoLedger, RuleContext, NavSpec, ActionSpec, EntityAction, RangeKind, FormSection,
  WorkflowConfig, Workflow, TransitionSpec, Numbering, PostsConfig, MovesConfig, RowsPerLineConfig, RuleFact, PrintConfig, ViewConfig, View, RelatedSpec,
} from './entity'
export { defineReport, REPORT_AREA, type Report, type ReportConfig } from './report'
export * as rules from './rules'
export * as money from './money'
export { withComputed, hasComputed, isSet, linesIn, lineTotal, linesTotal } from './compute'
export { documentOf, documentFacts, isDocumentShape, type DocumentShape } from './document'
export { normalizers, type Normalizer } from './normalize'
export { IMAGE_SIGNATURE_BYTES, rasterImageTypeOf, thumbnailOf, THUMBNAIL_SIZE } from './media'
export { addMessageFormats, messageOfIssue, renderMessage, validationKeys, type Message, type ValidationKey, type Translate } from './messages'
