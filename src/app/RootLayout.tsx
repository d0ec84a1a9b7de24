import { Outlet } from '@tanstack/react-router'
import { lazy, Suspense, useState } from 'react'
import { hasFeedback, useFeedback } from '../engine/ui/notifications'

const FeedbackView = lazy(() => import('../engine/ui/Notifications').then((m) => ({ default: m.FeedbackView })))

/**
 * The root of every route: the page and, over it, the alerts, snackbar and notifications
 * (loaded with the first message, so the login screen does not carry them).
 */
export function RootLayout() {
  const feedback = useFeedback()
  const [hasShown, setHasShown] = useState(false)
  if (hasFeedback(feedback) && !hasShown) setHasShown(true)
  return (
    <>
      <Outlet />
      {hasShown && (
        <Suspense fallback={null}>
          <FeedbackView />
        </Suspense>
      )}
    </>
  )
}
