import { useTranslation } from 'react-i18next'
import { isBuiltInRow } from '../../../schema/kit'
import { useAccess } from '../access-context'
import { linesTreeOf } from '../check-tree'
import { useEntities } from '../entities-context'
import { SelfTreeSelect } from '../widgets/TreeRefSelect'
import { FieldRow } from './FieldRow'
import { LinesCheckTree } from './LinesCheckTree'
import { LinesEditor } from './LinesEditor'
import type { FormController } from './useFormController'

const gridClass = 'grid min-w-0 gap-x-6 gap-y-5 sm:grid-cols-2'

/**
 * The inputs of a generic form, part by part (the registry's sections), as its controller
 * holds them: each field's row, a document's lines, a tree of ticks. The form screen's body,
 * and a dialog's (a picker's "New …": ReferenceNewDialog), so both are one form. Its
 * pickers offer "New …" for their targets; a form the user may not save is shown disabled.
 */
export function FormFields({ controller, canSave }: { controller: FormController; canSave: boolean }) {
  const { t } = useTranslation()
  const access = useAccess()
  const entities = useEntities()
  const { entity, row, form } = controller
  const fieldOf = (name: string) => {
    const field = controller.fieldOf(name)
    // Lines that each name a row of a tree (a role's menu items) are ticked in that tree.
    const isTree = field.kind === 'lines' && linesTreeOf(field, entities) !== undefined
    return field.kind === 'lines' && !controller.widgets?.[name] && !isTree ? (
      <LinesEditor
        key={name}
        name={name}
        field={field}
        labelKey={controller.labelKey(name)}
        control={form.control}
        storedLabels={controller.storedLineLabels(name)}
        isDisabled={!canSave}
        widgets={controller.widgets}
        balance={entity.rules.find((rule) => rule.kind?.balanced.lines === name)?.kind?.balanced}
        revalidate={form.trigger}
        setValue={form.setValue}
      />
    ) : (
      <FieldRow
        key={name}
        name={name}
        field={field}
        labelKey={controller.labelKey(name)}
        control={form.control}
        Widget={controller.widgets?.[name] ?? (isTree ? LinesCheckTree : field.kind === 'ref' && field.ref?.target === entity.name ? SelfTreeSelect : undefined)}
        knownLabels={controller.knownLabelsOf(name)}
        lockedNote={name === entity.builtIn?.field && isBuiltInRow(entity, row) ? 'form.built_in_locked' : controller.isUnpickable(name) ? 'form.cannot_pick' : field.isAdminOnly && !access.isAdmin ? 'form.admin_only' : undefined}
        offersNew={canSave}
      />
    )
  }
  return (
    <fieldset disabled={!canSave} className="min-w-0 divide-y divide-slate-200 dark:divide-slate-800">
      {controller.sections.map((section) =>
        section.label === null ? (
          <div key={section.key} className={gridClass}>
            {section.names.map(fieldOf)}
          </div>
        ) : (
          // A part of a long form (Account, Personal, Address…): a group named by its heading.
          // The legend floats so that it sits inside the section's padding, not on its top edge.
          <fieldset key={section.key} className="min-w-0 py-6 first:pt-0 last:pb-0">
            <legend className="float-start mb-4 w-full">
              <h2 className="text-base font-semibold text-slate-900 dark:text-slate-100">{t(section.label)}</h2>
            </legend>
            <div className={`clear-both ${gridClass}`}>{section.names.map(fieldOf)}</div>
          </fieldset>
        ),
      )}
    </fieldset>
  )
}
