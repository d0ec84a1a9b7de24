import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { Outlet, useRouterState } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { sharedQueryClient } from '../app/query-client'
import { session } from '../auth/session'
import { useCurrentUser } from '../auth/useCurrentUser'
import { useEntities } from '../engine/entities-context'
import { Icon } from '../engine/ui/icons'
import { LanguageMenu } from './LanguageMenu'
import { buildNavigation } from './navigation'
import { SideNav } from './SideNav'
import { ThemeToggle } from './ThemeToggle'
import { UserMenu } from './UserMenu'

/**
 * The signed-in layout. It owns the server-state cache, which is dropped when the
 * session ends so the next user never sees the previous one's data.
 */
export function Shell({ queryClient }: { queryClient?: QueryClient }) {
  const client = queryClient ?? sharedQueryClient()
  useEffect(
    () =>
      session.subscribe(() => {
        if (!session.getState().isLoggedIn) client.clear()
      }),
    [client],
  )
  return (
    <QueryClientProvider client={client}>
      <Layout />
    </QueryClientProvider>
  )
}

/**
 * Layout 1 (spec §2): side navigation, light toolbar, content and footer. Below the large
 * breakpoint the navigation becomes a drawer.
 */
function Layout() {
  const { t } = useTranslation()
  const entities = useEntities()
  const user = useCurrentUser()
  const items = useMemo(() => buildNavigation(entities), [entities])
  const [isDrawerOpen, setIsDrawerOpen] = useState(false)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => setIsDrawerOpen(false), [pathname])
  useEffect(() => {
    if (!isDrawerOpen) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setIsDrawerOpen(false)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [isDrawerOpen])
  const role = user?.role ?? null

  return (
    <div className="min-h-dvh lg:ps-70">
      <div className="fixed inset-y-0 start-0 z-30 hidden lg:block">
        <SideNav items={items} role={role} />
      </div>
      {isDrawerOpen && (
        <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label={t('nav.navigation')}>
          <div className="absolute inset-0 bg-slate-900/60" onClick={() => setIsDrawerOpen(false)} aria-hidden="true" />
          <div className="absolute inset-y-0 start-0 flex">
            <SideNav items={items} role={role} />
            <button
              type="button"
              onClick={() => setIsDrawerOpen(false)}
              className="m-3 self-start rounded-md p-2 text-white hover:bg-white/10"
              aria-label={t('toolbar.close_navigation')}
              autoFocus
            >
              <Icon name="close" className="size-6" />
            </button>
          </div>
        </div>
      )}

      <div className="flex min-h-dvh flex-col">
        <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-2 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/95">
          <button
            type="button"
            onClick={() => setIsDrawerOpen(true)}
            className="-ms-1 rounded-md p-2 text-slate-600 hover:bg-slate-100 lg:hidden dark:text-slate-300 dark:hover:bg-slate-800"
            aria-label={t('toolbar.open_navigation')}
          >
            <Icon name="menu" className="size-6" />
          </button>
          <div className="flex-1" />
          <ThemeToggle />
          <LanguageMenu />
          <div className="mx-1 h-6 w-px bg-slate-200 dark:bg-slate-700" aria-hidden="true" />
          <UserMenu />
        </header>
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <div className="mx-auto max-w-[1570px]">
            <Outlet />
          </div>
        </main>
        <footer className="border-t border-slate-200 px-4 py-4 text-xs text-slate-500 sm:px-6 lg:px-8 dark:border-slate-800 dark:text-slate-400">
          {t('app.copyright', { year: new Date().getFullYear() })}
        </footer>
      </div>
    </div>
  )
}
