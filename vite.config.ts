import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type ViteUserConfig } from 'vitest/config'
import { recordBuildInputs } from './scripts/build-inputs.ts'
import { precompressAssets } from './scripts/precompress.ts'

/**
 * A project whose files share the app's modules in each worker (isolate: false): imported once
 * per worker, not once per file — seconds each. What a file changes of the shared state (the
 * catalogues) its setup file puts back. A file that replaces a module (vi.mock)
 * needs a module graph of its own: those run apart, as `<name>-own-modules`.
 */
function sharingModules(name: string, dir: string, pattern: string, test: ProjectTest): TestProject[] {
  const replacing = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file).replaceAll('\\', '/'))
    .filter((file) => /\.test\.tsx?$/.test(file) && /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')))
  const shared: TestProject = { extends: true, test: { ...test, name, include: [`${dir}/**/${pattern}`], exclude: replacing, isolate: false } }
  return replacing.length === 0 ? [shared] : [shared, { extends: true, test: { ...test, name: `${name}-own-modules`, include: replacing } }]
}
type TestProject = { extends: true; test: ProjectTest & { name: string } }
type ProjectTest = NonNullable<ViteUserConfig['test']>

// API paths of the contract (`/<entity>/api/v1/…`), `/api/…` and uploads go to the server in dev.
const apiProxy = { target: 'http://localhost:3000', changeOrigin: false }

export default defineConfig({
  plugins: [react(), tailwindcss(), precompressAssets(), recordBuildInputs()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // What every route needs (React, the router, i18next, the session and its JWT reader,
        // the feedback store, the early answers) in one file: a dozen small chunks compress worse than one, and /login pays for it.
        codeSplitting: {
          // A group takes only the modules it names; what they import stays where it was.
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](react-router|router-core|history|store|react-store)|i18next|react-i18next|use-sync-external-store|jose|tiny-invariant|tiny-warning|cookie-es|seroval[^\\/]*)[\\/]|src[\\/](auth[\\/]session|engine[\\/]ui[\\/]notifications|engine[\\/]api-error|engine[\\/]api-session|engine[\\/]early-answers)\.ts$|schema[\\/]kit[\\/]request-url\.ts$/,
            },
            {
              // The signed-in shell in its default state (layout 1) and what every signed-in
              // screen uses (the route guard, the navigation, the user menu, the modules' screen
              // maps — all of them: a map left in another chunk makes a cycle with this one, and
              // after a sign-in it was read before it was set); the other layouts, navbar styles
              // and panels stay in their own chunks.
              name: 'shell',
              test: /node_modules[\\/](@tanstack[\\/](react-query|query-core)|ky)[\\/]|src[\\/](shell[\\/](Shell|DropdownMenu|UserMenu|Avatar|navigation|useNavigation|useDocumentTitle|layouts[\\/](Layout1|parts)|navbar[\\/](SideNavbar|NavbarToggle|NavigationList|navbar-state|useHoverIntent)|settings[\\/](settings|store)|toolbar[\\/](LanguageMenu|LanguageItems|FontSizeMenu|FullscreenToggle|ModeToggle|MoreMenu|ShortcutsMenu|shortcuts|ToolbarSearch)|panels[\\/](Panels|panel-state)|palette[\\/]PaletteHost)|engine[\\/](api|queries|errors|entities-context|access-context|ui[\\/](icons|Banner|feedback-history))|i18n[\\/]useFormat|auth[\\/](useCurrentUser|useAccess|access)|app[\\/](query-client|signed-in-routes|SessionAccess)|modules[\\/][a-z-]+[\\/]screens)\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '^/api/.*': apiProxy,
      '^/media/.*': apiProxy,
      '^/[a-z_]+/api/.*': apiProxy,
    },
  },
  test: {
    // Vitest would take one worker less than the cores: one on a two-core machine (CI's too).
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'] } },
      ...sharingModules('server', 'tests/server', '*.test.ts', {
        environment: 'node',
        globalSetup: ['tests/server/global-setup.ts'],
        setupFiles: ['tests/server/setup.ts'],
        testTimeout: 60_000,
        hookTimeout: 120_000,
        pool: 'forks',
        maxWorkers: 2,
        // Its own worker limit needs its own group: vitest runs it after unit and ui.
        sequence: { groupOrder: 1 },
      }),
      // Each browser file on a page and modules of its own: the shell's stores, lazy screens and
      // late answers of one file's apps reach the next one's otherwise (seen: a side panel shown).
      { extends: true, test: { name: 'ui', environment: 'jsdom', include: ['tests/ui/**/*.test.tsx'], setupFiles: ['tests/ui/setup.ts'], testTimeout: 20_000 } },
    ],
  },
})
