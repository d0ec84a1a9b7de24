import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { downloadFile, type DownloadProgress } from '../download'
import type { AnyEntity, ListParams } from '../entity-api'
import { errorText } from '../errors'
import { notify } from '../ui/notifications'
import { Icon } from '../ui/icons'
import { useFormat } from '../../i18n/useFormat'
import { toolButtonClass, ToolLabel } from './tool-button'

/**
 * "Export" in a list's header: every row the list holds — its search, filters, list view
 * and order, not the page — as CSV or an Excel workbook, in the screen's columns when it
 * says them (the server's `{base}/export/`). While the server streams the file, a progress
 * bar says how far it is (rows for a CSV, the size for a workbook) with a Cancel; the file
 * is saved when whole, and a failure is said as the app says API errors.
 */
type Format = 'csv' | 'xlsx'

type State =
  | { readonly step: 'idle' }
  | { readonly step: 'running'; readonly format: Format; readonly progress: DownloadProgress | null }
  | { readonly step: 'failed'; readonly reason: string }

/** The server's query of an export of the list as `params` shows it (page and size are not its business). */
export function exportRequestOf(entity: AnyEntity, params: ListParams, format: Format, columns?: readonly string[]) {
  return {
    path: `${entity.api.base}/export/`,
    searchParams: {
      ...(params.filters ?? {}),
      view: entity.listView?.name,
      q: params.search?.trim() || undefined,
      ordering: params.ordering || undefined,
      columns: columns && columns.length > 0 ? columns.join(',') : undefined,
      format,
    },
  }
}

const itemClass = 'block w-full rounded-md px-3 py-2 text-start text-sm text-slate-700 data-focus:bg-slate-100 dark:text-slate-200 dark:data-focus:bg-slate-800'

/** A size as people read it: kB under a megabyte, MB above, Latin digits as the screens write numbers. */
function sizeText(bytes: number, language: string): string {
  const locale = language === 'ar' ? 'ar-u-nu-latn' : language
  const [unit, value] = bytes < 1_000_000 ? (['kilobyte', bytes / 1_000] as const) : (['megabyte', bytes / 1_000_000] as const)
  return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value)
}

function ExportProgress({ state, onCancel }: { state: Extract<State, { step: 'running' }>; onCancel: () => void }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const progress = state.progress
  const total = progress?.totalRows ?? null
  const rows = progress?.rows ?? null
  const isCounted = rows !== null && total !== null
  const text = !progress
    ? t('export.starting')
    : isCounted
      ? t('export.progress_rows', { count: total, done: format.integer(rows), total: format.integer(total) })
      : t('export.progress_size', { size: sizeText(progress.receivedBytes, i18n.language) })
  const share = isCounted ? (total === 0 ? 100 : Math.round((rows / total) * 100)) : null
  return (
    <div className="flex min-w-0 basis-full items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-xs sm:basis-auto dark:border-slate-700 dark:bg-slate-900">
      <div className="min-w-0 flex-1 sm:w-64 sm:flex-none">
        <p className="truncate text-xs text-slate-600 dark:text-slate-300" aria-live="polite">
          {text}
        </p>
        <div
          role="progressbar"
          aria-label={t('export.progress_label')}
          aria-valuemin={0}
          aria-valuemax={isCounted ? total : undefined}
          aria-valuenow={isCounted ? rows : undefined}
          aria-valuetext={text}
          className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        >
          <div
            className={`h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400 ${share === null ? 'w-1/3 animate-pulse' : ''}`}
            style={share === null ? undefined : { width: `${share}%` }}
          />
        </div>
      </div>
      <button
        type="button"
        onClick={onCancel}
        className="shrink-0 rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        {t('export.cancel')}
      </button>
    </div>
  )
}

export function ExportMenu({ entity, params, columns }: { entity: AnyEntity; params: ListParams; columns?: readonly string[] }) {
  const { t } = useTranslation()
  const [state, setState] = useState<State>({ step: 'idle' })
  const controller = useRef<AbortController | null>(null)

  // Leaving the screen ends a download under way.
  useEffect(() => () => controller.current?.abort(), [])

  const start = async (format: Format) => {
    controller.current?.abort()
    const own = new AbortController()
    controller.current = own
    setState({ step: 'running', format, progress: null })
    try {
      const { fileName } = await downloadFile({
        ...exportRequestOf(entity, params, format, columns),
        countsRows: format === 'csv',
        signal: own.signal,
        fallbackName: `${entity.listKey}.${format}`,
        onProgress: (progress) => {
          if (!own.signal.aborted) setState({ step: 'running', format, progress })
        },
      })
      if (own.signal.aborted) return
      setState({ step: 'idle' })
      notify({ kind: 'success', key: 'export.saved', params: { file: fileName } })
    } catch (error) {
      if (own.signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) return
      setState({ step: 'failed', reason: errorText(t, error) })
    } finally {
      if (controller.current === own) controller.current = null
    }
  }

  const cancel = () => {
    controller.current?.abort()
    controller.current = null
    setState({ step: 'idle' })
  }

  if (state.step === 'running') return <ExportProgress state={state} onCancel={cancel} />

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <Menu>
        <MenuButton className={toolButtonClass}>
          <ToolLabel icon="download" label="export.button" hasChevron />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          className="z-50 min-w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg [--anchor-gap:4px] focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {(['csv', 'xlsx'] as const).map((format) => (
            <MenuItem key={format}>
              <button type="button" className={itemClass} onClick={() => void start(format)}>
                {t(`export.${format}`)}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
      {state.step === 'failed' && (
        <p role="alert" className="flex max-w-full items-start gap-1.5 rounded-md bg-red-50 px-2 py-1 text-sm text-red-800 dark:bg-red-950/60 dark:text-red-200">
          <Icon name="warning" className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 break-words">{t('export.failed', { reason: state.reason })}</span>
          <button type="button" onClick={() => setState({ step: 'idle' })} className="-me-1 shrink-0 rounded p-0.5 opacity-70 hover:opacity-100" aria-label={t('common.dismiss')}>
            <Icon name="x" className="size-4" />
          </button>
        </p>
      )}
    </div>
  )
}
