// ci/bench-vs's Playwright side: the ci/bench-run suite as Playwright Test tests, doing the
// work fastbrowser's scenarios do and nothing more. Debian's Chromium with fastbrowser's own
// launch flags (no browser download); a cheap reporter and no traces, videos or screenshots,
// so both sides pay for the same work. BASE_URL is the fixture server ci/bench-vs starts.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: '.',
  testMatch: 'suite.spec.js',
  fullyParallel: true, // --workers 2 splits the one file's tests, as --jobs 2 splits files
  retries: 0,
  reporter: 'dot',
  outputDir: process.env.PW_OUTPUT_DIR || 'test-results',
  use: {
    baseURL: process.env.BASE_URL,
    trace: 'off',
    video: 'off',
    screenshot: 'off',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: [
        '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
        '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync',
      ],
    },
  },
});
