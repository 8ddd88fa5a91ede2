// ci/realapp's Playwright side: the ported Swagger UI tests (playwright/*.spec.js) against the
// suite's static server (server.py, started by ci/realapp, or by Playwright's webServer when
// run alone: `npx playwright test` in this folder). Debian's Chromium, headless, with
// fastbrowser's launch flags; no browser download (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 at npm ci).
const { defineConfig } = require('@playwright/test');

const port = process.env.SUITE_PORT || '4477';
const baseURL = process.env.BASE_URL || `http://127.0.0.1:${port}`;

module.exports = defineConfig({
  testDir: 'playwright',
  testMatch: '*.spec.js',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30000,
  expect: { timeout: 5000 },
  reporter: [['list'], ['json', { outputFile: process.env.PW_JSON || 'playwright-results/results.json' }]],
  outputDir: process.env.PW_OUTPUT_DIR || 'playwright-results/artifacts',
  webServer: {
    command: `python3 server.py --port ${port}`,
    url: `${baseURL}/health`,
    reuseExistingServer: true,
    timeout: 10000,
  },
  use: {
    baseURL,
    trace: 'off',
    video: 'off',
    screenshot: 'off',
    headless: true,
    viewport: { width: 1280, height: 720 }, // the scenarios' viewport too
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--disable-quic', '--no-first-run',
      ],
    },
  },
});
