import { createContext, createElement, useContext, type ReactNode } from 'react'
import type { AnyField } from '../../../schema/kit'
import type { EngineAccess } from '../access-context'
import type { AnyEntity, OptionFilters } from '../entity-api'
import type { EntityScreens, ScreenMap } from './extension'
import type { FormValues } from './form-values'

/**
 * What a reference picker's "New …" needs to know before it offers a dialog with the target's
 * own generic form (ReferenceNewDialog): whether the user may create the target there, and
 * what the new row starts with. Kept apart from the dialog, which loads only when opened.
 */

/**
 * The modules' screens by entity (src/app gives them): the dialog runs the target's form
 * extension as its own screen does (a user's password confirmation), and offers nothing for an
 * entity whose form a module replaces (a ticket's thread). Without it, the registry's form.
 */
const ScreensContext = createContext<ScreenMap | null>(null)

export function FormScreensProvider({ screens, children }: { screens: ScreenMap; children: ReactNode }) {
  return createElement(ScreensContext.Provider, { value: screens }, children)
}

/** The target's module screens; `{}` when it has none or the app gave none. */
export function useScreensOf(entity: AnyEntity | undefined): EntityScreens {
  const screens = useContext(ScreensContext)
  return (entity && screens?.[entity.name]) ?? {}
}

/**
 * Whether a new row of `target` may be made in a dialog: the user may create it, it has a
 * create route and a generic form, and it is master data — a document with lines (an order)
 * or a line is worked on its own screen.
 */
export function canCreateInDialog(target: AnyEntity, access: EngineAccess, screens: EntityScreens): boolean {
  return access.canDo(target, 'CREATE') && target.routes.create !== false && !target.isLine && target.linesFieldNames.length === 0 && screens.form === undefined
}

/**
 * The values a new row starts with: what the outer form's picker is filtered by (a District
 * picked within the chosen Country starts in that Country), and the text typed in the picker
 * as its label, when that is a text a person types.
 */
export function newRowValues(target: AnyEntity, filters: OptionFilters | undefined, typed: string): FormValues {
  const values: FormValues = {}
  for (const [name, value] of Object.entries(filters ?? {})) {
    const field: AnyField | undefined = target.fields[name]
    if (field?.kind === 'ref' && !field.isReadOnly) values[name] = typeof value === 'number' ? value : Number(value)
  }
  const label = target.fields[target.labelField]
  const text = typed.trim()
  if (text && label?.kind === 'text' && label.widget === 'text' && !label.isReadOnly) values[target.labelField] = text.slice(0, label.maxLength ?? 255)
  return values
}
