import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { useLocation } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity, Row } from '../entity-api'
import { Icon, type IconName } from '../ui/icons'
import { RecordHistory } from './RecordHistory'

/**
 * A stored record's form as two tabs, Details and History (registry `history`, on unless an
 * entity turns it off): the form and what goes with it under Details, kept mounted while the
 * History tab is open — unsaved edits stay — and the history asked only once it is opened.
 * A new record, or an entity without a history, is the form alone. `#history` in the address
 * opens on the History tab.
 */
const tabClass =
  'inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 data-[selected]:border-indigo-600 data-[selected]:text-indigo-700 border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200 dark:data-[selected]:border-indigo-400 dark:data-[selected]:text-indigo-300'

function TabName({ icon, text }: { icon: IconName; text: string }) {
  return (
    <>
      <Icon name={icon} className="size-4" />
      {text}
    </>
  )
}

export function RecordTabs({ entity, row, children }: { entity: AnyEntity; row: Row | null; children: ReactNode }) {
  const { t } = useTranslation()
  const isHistoryAsked = useLocation({ select: (l) => l.hash === 'history' })
  if (!row || !entity.hasHistory) return <>{children}</>
  return (
    <TabGroup defaultIndex={isHistoryAsked ? 1 : 0} className="space-y-6">
      <TabList aria-label={t('history.tabs', { entity: t(`${entity.labelKey}.one`) })} className="flex gap-2 border-b border-slate-200 print:hidden dark:border-slate-800">
        <Tab className={tabClass}>
          <TabName icon="document" text={t('history.tab_details')} />
        </Tab>
        <Tab className={tabClass}>
          <TabName icon="clock" text={t('history.title')} />
        </Tab>
      </TabList>
      <TabPanels>
        {/* Hidden, not unmounted: the form keeps what was typed while its history is read. */}
        <TabPanel unmount={false} className="space-y-6 focus:outline-none">
          {children}
        </TabPanel>
        <TabPanel className="focus:outline-none">
          <RecordHistory entity={entity} row={row} />
        </TabPanel>
      </TabPanels>
    </TabGroup>
  )
}
