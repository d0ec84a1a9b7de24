import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { changeLanguage } from '../../src/i18n'
import { api, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

const listPath = '/apps/thana-management/thanas'

/**
 * A search the server counted only so far (`total_is_lower_bound`, server/engine/list-query.ts):
 * the generic list says "more than N" where it says the total, and lets the next page be asked.
 */
function answerWith(lowerBound: boolean) {
  const calls: URL[] = []
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    calls.push(url)
    const page = Number(url.searchParams.get('page') ?? 1)
    const size = Number(url.searchParams.get('size') ?? 30)
    const total = 1000
    const totalPages = Math.ceil((lowerBound ? total + 1 : total) / size)
    return HttpResponse.json({ thanas: thanaRows, page, size, total_pages: totalPages, total_elements: total, ...(lowerBound ? { total_is_lower_bound: true } : {}) })
  }
  server.use(http.get(api(`${thanaBase}/all/`), answer), http.get(api(`${thanaBase}/search/`), answer))
  return calls
}

describe('a list whose total is a lower bound', () => {
  beforeEach(() => storeSession())
  afterEach(() => changeLanguage('en'))

  it('says "more than" the total, in the footer and the heading, and offers the page past it', async () => {
    const calls = answerWith(true)
    const { user } = await renderApp(listPath)
    expect(await screen.findByText('1–30 of more than 1,000')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 34 or more')).toBeInTheDocument()
    expect(screen.getByText('More than 1000 records')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next page' }))
    expect(await screen.findByText('Page 2 of 34 or more')).toBeInTheDocument()
    expect(calls.at(-1)!.searchParams.get('page')).toBe('2')
  })

  it('says the total as it is when it is exact', async () => {
    answerWith(false)
    await renderApp(listPath)
    expect(await screen.findByText('1–30 of 1,000')).toBeInTheDocument()
    expect(screen.getByText('Page 1 of 34')).toBeInTheDocument()
    expect(screen.getByText('1000 records')).toBeInTheDocument()
    expect(screen.queryByText(/more than/i)).not.toBeInTheDocument()
  })

  it('offers to select every row of the list only when it knows how many that is', async () => {
    answerWith(true)
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }))
    expect((await screen.findAllByText(/selected/)).length).toBeGreaterThan(0)
    expect(screen.queryByRole('button', { name: /of this list/ })).not.toBeInTheDocument()
  })

  it('offers it for an exact total', async () => {
    answerWith(false)
    const { user } = await renderApp(listPath)
    await user.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(await screen.findByRole('button', { name: /Select all 1,?000 Police Stations of this list/ })).toBeInTheDocument()
  })

  it('in Turkish', async () => {
    answerWith(true)
    await changeLanguage('tr')
    await renderApp(listPath)
    expect(await screen.findByText('1–30 / 1.000 üzeri')).toBeInTheDocument()
    expect(screen.getByText('Sayfa 1 / 34 veya daha fazla')).toBeInTheDocument()
    expect(screen.getByText('1000 kaydın üzerinde')).toBeInTheDocument()
  })

  it('in Arabic', async () => {
    answerWith(true)
    await changeLanguage('ar')
    await renderApp(listPath)
    expect(await screen.findByText(/أكثر من/, { selector: 'span' })).toBeInTheDocument()
    expect(screen.getByText(/أو أكثر/)).toBeInTheDocument()
  })
})
