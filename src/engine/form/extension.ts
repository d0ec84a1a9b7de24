import type { ComponentType } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import type { AnyField, Message } from '../../../schema/kit'
import type { AnyEntity, Row } from '../entity-api'
import type { WidgetProps } from '../widgets/types'
import type { FormValues, SubmitValues } from './form-values'

/**
 * How a module adds its own behaviour to the generic form of one entity, without the
 * engine knowing the entity: other labels, fields left out, other widgets, inputs that are
 * not fields (a password confirmation), rules across fields and checks that ask the
 * server as the user types. Modules list theirs in their screen map (`src/modules/<module>/screens.ts`).
 */
export type FormContext = { entity: AnyEntity; row: Row | null; isNew: boolean }

export type AppForm = UseFormReturn<FormValues, unknown, SubmitValues>

/**
 * An input of the form that is not a field of the entity: shown after `after` (even when that
 * field is left out), checked by its own field's rules and `validate`, sent only if `payload`
 * takes it.
 */
export type ExtraField = {
  name: string
  field: AnyField
  after: string
  isShown?: (context: FormContext) => boolean
}

export type FormExtension = {
  /** Label keys replacing the registry's on this form (a contract's own form labels). */
  labels?: Readonly<Record<string, string>>
  /** Fields the form leaves out: not shown, not checked, not sent (the server keeps what it has). */
  hiddenFields?: (context: FormContext) => readonly string[]
  /** Widgets replacing the registry's, by field; a document line's cell by `<lines>.<field>` (`items.ledger`). */
  widgets?: Readonly<Record<string, ComponentType<WidgetProps>>>
  extraFields?: readonly ExtraField[]
  /** More keys of the body a save sends, from the form's values (a subscription's `members`). */
  payload?: (values: SubmitValues, context: FormContext) => Record<string, unknown>
  /** Rules across values, after the registry's: messages by field. */
  validate?: (values: FormValues, context: FormContext) => Record<string, Message>
  /**
   * A hook run inside the form: checks that ask the server as the user types. Its messages
   * by field are shown like the registry's and stop the save while they stand.
   */
  useFieldChecks?: (form: AppForm, context: FormContext) => Readonly<Record<string, Message | undefined>>
  /** Shown under a stored record's form, each with the record (a voucher's general-ledger postings). */
  panels?: readonly ComponentType<{ entity: AnyEntity; row: Row }>[]
  /**
   * The words of the form's delete where the entity's users call it something else (a
   * voucher is cancelled: its postings are reversed), as i18n keys with the record's label;
   * `done` is said once it is, in place of the server's "deleted".
   */
  deleteWords?: { label: string; title: string; confirm: string; cancel: string; text: string; done?: string }
}

/** Screens a module puts in place of the generic ones, each loaded when its route is opened. */
export type EntityScreens = {
  /** Replaces the generic list at `ui.listPath`. */
  list?: () => Promise<ComponentType<{ entity: AnyEntity }>>
  /** Replaces the generic form screen at the form routes. */
  form?: () => Promise<ComponentType<{ entity: AnyEntity }>>
  /** Plugs into the generic form (ignored when `form` replaces it). */
  formExtension?: () => Promise<FormExtension>
}

export type ScreenMap = Readonly<Record<string, EntityScreens>>
