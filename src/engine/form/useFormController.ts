import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useBlocker, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useMessagesInLanguage } from './useMessagesInLanguage'
import { isApiError } from '../api'
import type { AnyField, Message } from '../../../schema/kit'
import { createRecord, fetchRecord, labelsOf, updateRecord, type AnyEntity, type RecordLabels, type Row } from '../entity-api'
import { errorText } from '../errors'
import { entityKeys } from '../queries'
import { showAlert } from '../ui/notifications'
import type { FormContext, FormExtension } from './extension'
import { toFormValues, toPayload, withoutBlankSecrets, type FormValues, type SubmitValues } from './form-values'
import { focusFirstField, focusFirstInvalidWhenDrawn } from './focus'
import { registryResolver } from './registry-resolver'
import { listReturn } from '../list/list-return'
import { useRefCascades } from './useRefCascades'
import { cachedFacts } from './rule-facts'
import { useCanPick } from '../pickable'
import { requestPrint } from '../print/print-request'

const noChecks = (): Readonly<Record<string, Message | undefined>> => ({})

/** What a save does after: stay on the record, start a new one, go back to the list, or print it. */
export type SaveIntent = 'stay' | 'new' | 'close' | 'print'
/** An extra input's empty value: no choices for a many-to-many, an empty text otherwise. */
const blankOf = (field: AnyField) => (field.kind === 'refs' ? [] : '')
const noExtension: FormExtension = {}

/**
 * The headless form of any registry entity: react-hook-form with the registry schema,
 * create or update, the server's field errors put on their fields and its `detail` in a
 * banner; after a save it stays on the saved record (or starts a new one, returns to the
 * list, prints — `submitAs`), and it asks before leaving unsaved changes.
 */
/**
 * `afterCreate`: work that needs the new record's id (its gallery's staged pictures), run
 * before leaving; what it answers failed is said, and the user is taken to the saved record
 * instead of the list, to add it again.
 */
export function useFormController({
  entity,
  row: openedRow,
  extension = noExtension,
  afterCreate,
  initialValues,
  returnTo,
  onSaved,
}: {
  entity: AnyEntity
  row: Row | null
  extension?: FormExtension
  afterCreate?: (saved: Row) => Promise<readonly string[]>
  /** Values a new record starts with, over the registry's defaults (a reference filled in: prefill.ts). */
  initialValues?: Readonly<FormValues>
  /** Where Save and Save & close go instead of the saved record and the list (the record a related row was started from). */
  returnTo?: string
  /** A form inside a dialog (a picker's "New …"): the saved row is handed here instead of any navigation, and it never holds the page. */
  onSaved?: (saved: Row) => void
}) {
  // The version the form was opened at: a refetch in the background must not slip a newer
  // `updated_at` under the user's edits (the server would then accept them over someone
  // else's); only `reload` moves the form to what is stored now.
  const [row, setRow] = useState(openedRow)
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const isNew = row === null
  const context: FormContext = useMemo(() => ({ entity, row, isNew }), [entity, row, isNew])
  const labelKey = useMemo(() => (field: string) => extension.labels?.[field] ?? entity.fieldLabelKey(field), [entity, extension])
  const canPick = useCanPick()
  /**
   * References whose target the user may not list: nothing to pick from. An optional one is
   * left out (a staff member's employee form has no roles to offer; the stored value stays);
   * a required one shows its stored name read-only, saying why (the form's `lockedNote`).
   */
  const unpickable = useMemo(() => new Set(entity.fieldNames.filter((name) => !canPick(entity.fields[name]!))), [entity, canPick])
  const hidden = useMemo(() => {
    // Read-only fields are the server's to set (`last_login`): nothing to enter.
    const readOnly = entity.fieldNames.filter((name) => entity.fields[name]!.isReadOnly)
    const optionalUnpickable = [...unpickable].filter((name) => !entity.fields[name]!.isRequired)
    return new Set([...readOnly, ...optionalUnpickable, ...(extension.hiddenFields?.(context) ?? [])])
  }, [entity, unpickable, extension, context])
  const extraFields = useMemo(() => (extension.extraFields ?? []).filter((x) => x.isShown?.(context) ?? true), [extension, context])
  /** The form's parts (the registry's sections, or one part of every field), each with its fields and extra inputs in order. */
  const sections = useMemo(() => {
    // An extra input after a field the form leaves out takes that field's place (a subscription's members for its member).
    const shown = (names: readonly string[]) => names.flatMap((name) => [...(hidden.has(name) ? [] : [name]), ...extraFields.filter((x) => x.after === name).map((x) => x.name)])
    if (entity.sections.length === 0) return [{ key: 'fields', label: null, names: shown(entity.fieldNames) }]
    const parts = entity.sections.map((section) => ({ key: section.key, label: section.label as string | null, names: shown(section.fields) }))
    // The start-up check puts every field in a section; an entity made on the fly may not have.
    const placed = new Set(entity.sections.flatMap((section) => section.fields))
    parts[parts.length - 1]!.names.push(...shown(entity.fieldNames.filter((name) => !placed.has(name))))
    return parts.filter((part) => part.names.length > 0)
  }, [entity, hidden, extraFields])
  /** The form's fields and extra inputs, in the order it shows them. */
  const fieldNames = useMemo(() => sections.flatMap((section) => section.names), [sections])
  // The latest answers of the extension's checks, read by the resolver at each validation.
  const checks = useRef<Readonly<Record<string, Message | undefined>>>({})
  const resolver = useMemo(
    () =>
      registryResolver(entity, t, {
        mode: isNew ? 'create' : 'update',
        labelKey,
        hidden,
        extraFields: Object.fromEntries(extraFields.map((x) => [x.name, x.field])),
        extra: (values) => ({ ...checks.current, ...extension.validate?.(values, context) }),
        fact: cachedFacts(queryClient),
      }),
    [entity, t, isNew, labelKey, hidden, extension, context, queryClient],
  )
  const defaultValues = useMemo(() => {
    const values = row ? toFormValues(entity, row) : { ...toFormValues(entity, null), ...initialValues }
    for (const extra of extraFields) values[extra.name] = blankOf(extra.field)
    return values
  }, [entity, row, extraFields, initialValues])
  // The focus after a failed save is ours (focus.ts): react-hook-form's would follow the order fields registered in.
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched', shouldFocusError: false })
  /** The form element, for the focus: its first field when new, the first in error after a failed save. */
  const formRef = useRef<HTMLFormElement>(null)
  const [focusRequest, setFocusRequest] = useState(0)
  useEffect(() => {
    if (focusRequest === 0) return
    // The messages are drawn in this render or a later one, however late: the focus waits for them.
    return focusFirstInvalidWhenDrawn(formRef.current)
  }, [focusRequest])
  const isNewAtOpen = useRef(isNew)
  useEffect(() => {
    if (isNewAtOpen.current) focusFirstField(formRef.current)
  }, [])

  // The hook is the extension's for the whole life of the form (the route's screen map is fixed).
  const useFieldChecks = extension.useFieldChecks ?? noChecks
  const checked = useFieldChecks(form, context)
  const { trigger: triggerCheck } = form
  useEffect(() => {
    const changed = Object.keys({ ...checks.current, ...checked }).filter((field) => checks.current[field] !== checked[field])
    checks.current = checked
    if (changed.length > 0) void triggerCheck(changed)
  }, [checked, triggerCheck])

  useMessagesInLanguage(form, fieldNames)

  // The display names of the record's references (`_labels`): no request per reference.
  const labels = useMemo(() => labelsOf(row), [row])
  const knownLabelsOf = (name: string): Readonly<Record<string, string>> | undefined => {
    const known = labels[name]
    if (typeof known === 'object') return known
    return typeof known === 'string' && row && (typeof row[name] === 'number' || typeof row[name] === 'string') ? { [String(row[name])]: known } : undefined
  }
  const storedLineLabels = (name: string): ReadonlyMap<number, RecordLabels> =>
    new Map((Array.isArray(row?.[name]) ? (row[name] as Row[]) : []).map((line) => [line.id, labelsOf(line)]))
  /** Values the engine works out (a line's total, a document's amount): shown, never entered. */
  const outputNames = useMemo(() => entity.fieldNames.filter((n) => entity.fields[n]!.compute !== undefined), [entity])
  /** What the server set on a stored record (a document's number and status, a last login): shown, never entered. */
  const serverNames = useMemo(
    () =>
      isNew
        ? []
        : entity.fieldNames.filter((n) => {
            const field = entity.fields[n]!
            // A workflow's status is shown as a chip by the title, not among the stored values.
            return field.isReadOnly && field.compute === undefined && field.kind !== 'lines' && !field.isWriteOnly && n !== entity.workflow?.field && !(extension.hiddenFields?.(context) ?? []).includes(n)
          }),
    [entity, isNew, extension, context],
  )
  const [isStale, setIsStale] = useState(false)
  const adopt = (fresh: Row) => {
    setRow(fresh)
    const values = toFormValues(entity, fresh)
    for (const extra of extraFields) values[extra.name] = blankOf(extra.field)
    form.reset(values)
    setIsStale(false)
  }

  const isDirty = form.formState.isDirty
  const isLeavingAllowed = useRef(false)
  const isDirtyNow = useRef(isDirty)
  isDirtyNow.current = isDirty
  const shouldBlock = () => isDirtyNow.current && !isLeavingAllowed.current && onSaved === undefined
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, enableBeforeUnload: shouldBlock, withResolver: true })

  const save = useMutation({
    mutationFn: ({ values }: { values: SubmitValues; intent: SaveIntent }) => {
      // An edit says which version it was made on: the server refuses it if someone changed the record since.
      const more = extension.payload?.(values, context) ?? {}
      const payload = row ? toPayload(entity, withoutBlankSecrets(entity, values), { ...more, ...(row.updated_at ? { updated_at: row.updated_at } : {}) }) : toPayload(entity, values, more)
      return row ? updateRecord(entity, row.id, payload) : createRecord(entity, payload)
    },
    onSuccess: async (saved, { intent }) => {
      if (saved && typeof saved.id === 'number') queryClient.setQueryData(entityKeys.record(entity.name, saved.id), saved)
      const failed = !row && afterCreate && saved && typeof saved.id === 'number' ? await afterCreate(saved) : []
      isLeavingAllowed.current = true
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
      if (failed.length > 0) {
        showAlert({ kind: 'warning', key: 'gallery.saved_without', params: { names: failed.join(', ') } }, 15_000)
        await navigate({ to: `${entity.ui.formPath}/${saved.id}` })
        return
      }
      showAlert({ kind: 'success', key: 'form.saved', params: { entity: t(`${entity.labelKey}.one`) } })
      if (onSaved) {
        onSaved(saved)
        return
      }
      if (returnTo && (intent === 'stay' || intent === 'close')) {
        await navigate({ to: returnTo })
        return
      }
      if (intent === 'close') {
        // Back to the list as the user left it (its page, order, search and filters).
        await navigate(listReturn(entity))
        return
      }
      if (intent === 'new') {
        if (isNew) startOver()
        else await navigate({ to: `${entity.ui.formPath}/new` })
        isLeavingAllowed.current = false
        return
      }
      // Save stays on the saved record (a new one at its own address), its number shown, ready to print.
      if (isNew) await navigate({ to: `${entity.ui.formPath}/${saved.id}`, replace: true })
      else adopt(saved)
      isLeavingAllowed.current = false
      // Printed once its printed form has what it shows (at the new address, it loads first).
      if (intent === 'print') requestPrint(entity.name, saved.id)
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 409 && row) {
        setIsStale(true)
        return
      }
      if (isApiError(error) && error.fieldErrors) {
        const other: string[] = []
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          // `items.3.quantity`: a line's field is on the form when its lines are.
          if (fieldNames.includes(field.split('.')[0]!)) form.setError(field, { type: 'server', message: messages.join(' ') })
          else other.push(...messages)
        }
        form.setError('root.server', { type: 'server', message: other.length > 0 ? other.join(' ') : t('form.fix_errors') })
        setFocusRequest((n) => n + 1)
        return
      }
      form.setError('root.server', { type: 'server', message: errorText(t, error) })
    },
  })

  /** A new, empty form (Save & new on a new record: the address stays). */
  const startOver = () => {
    setRow(null)
    // Another of the same kind keeps what it was started with (a further qualification of the same employee).
    const values: FormValues = { ...toFormValues(entity, null), ...initialValues }
    for (const extra of extraFields) values[extra.name] = blankOf(extra.field)
    form.reset(values)
    requestAnimationFrame(() => focusFirstField(formRef.current))
  }

  /**
   * Saves, then stays on the record, opens a new one, returns to the list or prints, as asked.
   * A stored record with nothing changed has nothing to send: only what follows is done.
   */
  const submitAs = (intent: SaveIntent) =>
    row && !form.formState.isDirty
      ? async () => {
          if (intent === 'close') await navigate(listReturn(entity))
          else if (intent === 'new') await navigate({ to: `${entity.ui.formPath}/new` })
          else if (intent === 'print') requestPrint(entity.name, row.id)
        }
      : form.handleSubmit(
          async (values) => {
            await save.mutateAsync({ values, intent }).catch(() => undefined)
          },
          () => setFocusRequest((n) => n + 1),
        )
  const submit = submitAs('stay')

  /** A field as the form shows it: on an edit a write-only one (a password) may stay blank. */
  const fieldOf = useCallback(
    (name: string): AnyField => {
      const field = entity.fields[name]
      if (!field) return extraFields.find((x) => x.name === name)!.field
      return !isNew && field.isWriteOnly ? ({ ...field, presence: 'optional', isRequired: false } as AnyField) : field
    },
    [entity, extraFields, isNew],
  )
  useRefCascades(form, fieldNames, fieldOf)

  return {
    entity,
    row,
    isNew,
    form,
    formRef,
    sections,
    fieldNames,
    labelKey,
    widgets: extension.widgets,
    fieldOf,
    /** A required reference the user may not pick (its stored name is shown, with the reason). */
    isUnpickable: (name: string) => unpickable.has(name) && entity.fields[name]!.isRequired,
    submit,
    submitAs,
    isSaving: save.isPending,
    isDirty,
    outputNames,
    serverNames,
    knownLabelsOf,
    storedLineLabels,
    /** Someone changed the record after it was opened: the save was refused (409). */
    isStale,
    /** Reads the record again (the form starts over from what is stored now). */
    reload: async () => {
      if (!row) return
      adopt(await queryClient.fetchQuery({ queryKey: entityKeys.record(entity.name, row.id), queryFn: ({ signal }) => fetchRecord(entity, row.id, signal), staleTime: 0 }))
    },
    /** Moves the form to a newer version of the record (after an action changed it). */
    adopt,
    /** The record is going away (deleted): leaving it needs no question. */
    allowLeaving: () => {
      isLeavingAllowed.current = true
    },
    /** Set while a navigation waits for the user's answer to "leave without saving?". */
    leavePrompt: blocker.status === 'blocked' ? { stay: blocker.reset, leave: blocker.proceed } : null,
  }
}

export type FormController = ReturnType<typeof useFormController>
