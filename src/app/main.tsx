import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { session } from '../auth/session'
import { checkSession } from '../auth/start-up'
import { initI18n } from '../i18n'
import { applyStoredSettings } from '../shell/settings/boot'
import { App } from './App'
import { createAppRouter } from './router'
import { applySiteSettings } from './site-settings'
import './styles.css'

async function boot(): Promise<void> {
  // Theme, font size and direction before the first paint (the splash is themed too).
  applyStoredSettings()
  const root = createRoot(document.getElementById('root')!)
  const router = createAppRouter({
    entities: null,
    // The registry (and zod with it) loads with the first screen that needs it, not with /login.
    loadEntities: () => import('../../schema').then((m) => m.entities),
    loadReports: () => import('../../schema').then((m) => m.reports),
  })
  await initI18n()
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  )
  void applySiteSettings(session.token())
  await checkSession()
}

void boot()
