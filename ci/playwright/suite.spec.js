// The twenty scenarios ci/bench-run writes (scenarios s01…s20), one Playwright test each:
// navigate, three assertions, a second page, a reload, against BASE_URL.
const { test, expect } = require('@playwright/test');

const n = Number(process.env.SCENARIOS || 20);
for (let i = 1; i <= n; i++) {
  test(`bench-${String(i).padStart(2, '0')}`, async ({ page, baseURL }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('Fastbrowser Fixture');
    await expect(page.locator('body')).toContainText('Fixture home');
    await page.goto('/about');
    await expect(page).toHaveURL(`${baseURL}/about`);
    await page.reload();
    await expect(page).toHaveTitle(/About/);
  });
}
