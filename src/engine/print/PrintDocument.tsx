import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { money, type AnyField } from '../../../schema/kit'
import { isLanguage } from '../../i18n'
import { useFormat } from '../../i18n/useFormat'
import { useAccess } from '../access-context'
import { useEntity } from '../entities-context'
import { fetchList, type AnyEntity, type Row } from '../entity-api'
import { cellValueOf, FieldCell } from '../list/FieldCell'
import { entityKeys } from '../queries'
import { amountInWords } from './amount-in-words'
import { usePrintRequest } from './print-request'

/**
 * A document's printed form, drawn from its registry `print` (the browser's print, or its
 * PDF): the company — name, address, contacts and logo from the site settings — then the
 * document's facts, the party it is with, its lines and their totals, its amount in figures
 * and in words in the reader's language, and the signature lines; in the page's direction.
 * It prints what is stored: the form's own edits are saved first.
 */
const isNumeric = (field: AnyField | undefined) => field?.kind === 'decimal' || field?.kind === 'integer'

const FIRST = { page: 1, size: 1 } as const

/** The site settings in force: the newest row (their list is read before anyone signs in). */
function useSiteSettings() {
  const settings = useEntity('general_setting')
  const list = useQuery({ queryKey: entityKeys.list('general_setting', FIRST), queryFn: ({ signal }) => fetchList(settings!, FIRST, signal), enabled: settings !== undefined, staleTime: 5 * 60_000 })
  return { site: list.data?.rows[0], isReady: settings === undefined || !list.isPending }
}

function Company({ site }: { site: Row | undefined }) {
  if (!site) return null
  const name = String(site.site_name || site.title || '')
  const address = typeof site.address === 'string' && site.address !== '' ? site.address : site.site_address
  const contacts = [site.phone, site.email].filter((v) => typeof v === 'string' && v !== '')
  return (
    <div className="flex items-start gap-4">
      {typeof site.logo === 'string' && site.logo !== '' && <img src={site.logo} alt="" className="h-14 w-auto" />}
      <div>
        <p className="text-xl font-semibold" data-testid="print-company">
          {name}
        </p>
        {typeof address === 'string' && <p className="whitespace-pre-line">{address}</p>}
        {/* A phone number and an e-mail read left to right, in an Arabic document too ("+880…", not "…880+"). */}
        {contacts.length > 0 && (
          <p>
            {contacts.map((c, i) => (
              <span key={String(c)}>
                {i > 0 && ' · '}
                <bdi dir="ltr">{String(c)}</bdi>
              </span>
            ))}
          </p>
        )}
      </div>
    </div>
  )
}

/** An amount in words in the reader's language (its number words load when first needed). */
function useAmountInWords(amount: string | undefined) {
  const { t, i18n } = useTranslation()
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  const words = useQuery({ queryKey: ['amount-in-words', language, amount], queryFn: () => amountInWords(amount!, language, t), enabled: amount !== undefined, staleTime: Infinity })
  return { words: words.data ?? '', isReady: amount === undefined || !words.isPending }
}

type Block = NonNullable<NonNullable<AnyEntity['print']>['blocks']>[number]

/** The newest row of another entity that refers to the document (an order's shipping address), for those who may list it. */
function useBlockRow(entity: AnyEntity, block: Block, id: number) {
  const other = useEntity(block.entity)
  const access = useAccess()
  const isAllowed = other !== undefined && access.can(other.permissions.LIST)
  const params = { page: 1, size: 1, ordering: '-id', filters: { [block.via]: String(id) } }
  const query = useQuery({
    // Under the document's own entity: asked again with it.
    queryKey: [...entityKeys.all(entity.name), 'print-block', block.entity, block.via, id],
    queryFn: ({ signal }) => fetchList(other!, params, signal),
    enabled: isAllowed,
  })
  return { other, row: isAllowed ? query.data?.rows[0] : undefined, isReady: !isAllowed || !query.isPending }
}

function PrintBlock({ entity, block, id, onReady }: { entity: AnyEntity; block: Block; id: number; onReady: (name: string, isReady: boolean) => void }) {
  const { t } = useTranslation()
  const { other, row, isReady } = useBlockRow(entity, block, id)
  useEffect(() => onReady(block.entity, isReady), [onReady, block.entity, isReady])
  if (!other || !row) return null
  const shown = block.fields.filter((name) => row[name] !== null && row[name] !== undefined && row[name] !== '')
  return (
    <div data-testid={`print-block-${block.entity}`}>
      <p className="font-medium">{t(block.label)}</p>
      {shown.map((name) => (
        <p key={name}>
          <FieldCell field={other.fields[name]!} value={cellValueOf(other.fields[name]!, row, name)} />
        </p>
      ))}
    </div>
  )
}

/** Whether every block has come (or is not for this reader): the print waits for them. */
function useBlocksReady(blocks: readonly Block[]) {
  const [ready, setReady] = useState<Readonly<Record<string, boolean>>>({})
  const onReady = useCallback((name: string, isReady: boolean) => setReady((r) => (r[name] === isReady ? r : { ...r, [name]: isReady })), [])
  return { onReady, isReady: blocks.every((b) => ready[b.entity] === true) }
}

export function PrintDocument({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const format = useFormat()
  const spec = entity.print!
  const label = (e: AnyEntity, field: string) => t(e.fieldLabelKey(field))
  const linesField = spec.lines ? entity.fields[spec.lines.field] : undefined
  const line = linesField?.lines?.entity
  const lines = spec.lines && Array.isArray(row[spec.lines.field]) ? (row[spec.lines.field] as Row[]) : []
  // A money column comes as text, a count as a number: both sum exactly as amounts.
  const amountIn = (l: Row, column: string) => (typeof l[column] === 'string' || typeof l[column] === 'number' ? String(l[column]) : null)
  const totalOf = (column: string) => money.sum(lines.map((l) => amountIn(l, column)))
  const shownTotal = (column: string) => (line?.fields[column]?.kind === 'integer' ? format.integer(Number(totalOf(column))) : format.decimal(totalOf(column)))
  const amount = spec.amount === undefined ? undefined : typeof spec.amount === 'string' ? (typeof row[spec.amount] === 'string' ? (row[spec.amount] as string) : undefined) : totalOf(spec.amount.sum)
  const party = spec.party?.of(row)
  const company = useSiteSettings()
  const inWords = useAmountInWords(amount)
  const blocks = spec.blocks ?? []
  const blocksReady = useBlocksReady(blocks)
  usePrintRequest(entity.name, row.id, company.isReady && inWords.isReady && blocksReady.isReady)
  return (
    <article className="hidden space-y-6 text-sm text-black print:block" aria-label={t(`${entity.labelKey}.one`)} data-testid="print-document">
      <header className="space-y-4 border-b border-black pb-3">
        <Company site={company.site} />
        <h1 className="text-2xl font-semibold">{t(`${entity.labelKey}.one`)}</h1>
      </header>
      <dl className="grid grid-cols-2 gap-x-8 gap-y-2">
        {spec.header
          .filter((name) => row[name] !== null && row[name] !== undefined && row[name] !== '')
          .map((name) => (
            <div key={name} className="flex gap-2">
              <dt className="font-medium">{label(entity, name)}:</dt>
              <dd>
                <FieldCell field={entity.fields[name]!} value={cellValueOf(entity.fields[name]!, row, name)} />
              </dd>
            </div>
          ))}
        {spec.party && party && (
          <div className="col-span-2 flex gap-2" data-testid="print-party">
            <dt className="font-medium">{t(spec.party.label)}:</dt>
            <dd>{party}</dd>
          </div>
        )}
      </dl>
      {blocks.length > 0 && (
        <div className="grid grid-cols-2 gap-x-8 gap-y-4">
          {blocks.map((block) => (
            <PrintBlock key={`${block.entity}.${block.via}`} entity={entity} block={block} id={row.id} onReady={blocksReady.onReady} />
          ))}
        </div>
      )}
      {spec.lines && line && (
        <table className="w-full border-collapse">
          <thead>
            <tr className="border-b border-black">
              <th className="py-1.5 text-start">#</th>
              {spec.lines.columns.map((c) => (
                <th key={c} className={`py-1.5 ${isNumeric(line.fields[c]) ? 'text-end' : 'text-start'}`}>
                  {label(line, c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={l.id ?? i} className="border-b border-slate-300">
                <td className="py-1.5">{i + 1}</td>
                {spec.lines!.columns.map((c) => (
                  <td key={c} className={`py-1.5 ${isNumeric(line.fields[c]) ? 'text-end tabular-nums' : ''}`}>
                    {isNumeric(line.fields[c]) && money.isZero(amountIn(l, c) ?? '0') ? '' : <FieldCell field={line.fields[c]!} value={cellValueOf(line.fields[c]!, l, c)} />}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          {(spec.totals ?? []).length > 0 && (
            <tfoot>
              <tr className="border-t-2 border-black font-semibold">
                <th scope="row" className="py-1.5 text-start">
                  {t('lines.total')}
                </th>
                {spec.lines.columns.map((c) => (
                  <td key={c} className="py-1.5 text-end tabular-nums" data-testid={spec.totals!.includes(c) ? `print-total-${c}` : undefined}>
                    {spec.totals!.includes(c) ? shownTotal(c) : null}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      )}
      {amount !== undefined && (
        <p>
          <span className="font-medium">{t('print.amount')}:</span> <span className="tabular-nums">{format.decimal(amount)}</span>
          <br />
          <span className="font-medium">{t('print.in_words')}:</span> <span data-testid="print-amount-words">{inWords.words}</span>
        </p>
      )}
      {(spec.signatures ?? []).length > 0 && (
        <footer className="grid grid-cols-3 gap-8 pt-16">
          {spec.signatures!.map((who) => (
            <p key={who} className="border-t border-black pt-1 text-center">
              {t(who)}
            </p>
          ))}
        </footer>
      )}
    </article>
  )
}
