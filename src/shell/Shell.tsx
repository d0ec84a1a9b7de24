import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect } from 'react'
import { sharedQueryClient } from '../app/query-client'
import { session } from '../auth/session'
import { useCurrentUser } from '../auth/useCurrentUser'
import { Layout1 } from './layouts/Layout1'
import { useNavigation } from './useNavigation'
import { FloatingButtons, OpenPanel } from './panels/Panels'
import { connectSettings, useSettings } from './settings/store'
import { useDocumentTitle } from './useDocumentTitle'
import { PaletteHost } from './palette/PaletteHost'
import { clearFeedbackHistory, recordFeedback } from '../engine/ui/feedback-history'
import { useFeedback } from '../engine/ui/notifications'
import { PageSpinner } from '../engine/ui/PageSpinner'

// Layouts 2 and 3 load when chosen; layout 1 is the default and comes with the shell.
const HorizontalLayout = lazy(() => import('./layouts/HorizontalLayout').then((m) => ({ default: m.HorizontalLayout })))

/**
 * The signed-in layout. It owns the server-state cache, which is dropped when the
 * session ends so the next user never sees the previous one's data.
 */
export function Shell({ queryClient }: { queryClient?: QueryClient }) {
  const client = queryClient ?? sharedQueryClient()
  useEffect(
    () =>
      session.subscribe(() => {
        if (session.getState().isLoggedIn) return
        client.clear()
        clearFeedbackHistory()
      }),
    [client],
  )
  return (
    <QueryClientProvider client={client}>
      <FeedbackRecorder />
      <Layout />
    </QueryClientProvider>
  )
}

/** Keeps the session's messages for the Inbox. */
function FeedbackRecorder() {
  const feedback = useFeedback()
  useEffect(() => recordFeedback(feedback), [feedback])
  return null
}

/** The layout the settings choose (spec §2), the floating buttons and the open panel. */
function Layout() {
  const user = useCurrentUser()
  const settings = useSettings()
  const items = useNavigation()
  useEffect(() => connectSettings(), [])
  useDocumentTitle()
  const role = user?.role ?? null
  return (
    <>
      {settings.layout.style === 'layout1' ? (
        <Layout1 settings={settings} items={items} role={role} />
      ) : (
        <Suspense fallback={<PageSpinner />}>
          <HorizontalLayout variant={settings.layout.style} settings={settings} items={items} role={role} />
        </Suspense>
      )}
      <FloatingButtons />
      <OpenPanel />
      <PaletteHost items={items} />
    </>
  )
}
