import { defineConfig } from 'vitest/config'

// Journeys in real headless Chromium against the built app and a real server.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // Lazy chunks and transitions take their time in a real browser on a busy machine.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
})
