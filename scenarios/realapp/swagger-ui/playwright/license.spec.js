// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/license.cy.js
// ("Render License Component"); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

test('license.oas2.url: should render License URL', async ({ page }) => {
  await page.goto('/?url=/documents/features/license-openAPI2.yaml');
  await expect(page.getByRole('link', { name: 'Apache 2.0' })).toBeVisible();
});

test('license.oas30.url: should render License URL', async ({ page }) => {
  await page.goto('/?url=/documents/features/license-openAPI30.yaml');
  await expect(page.getByRole('link', { name: 'Apache 2.0' })).toBeVisible();
});

test('license.oas31.url: given URL field, should render URL', async ({ page }) => {
  await page.goto('/?url=/documents/features/license-openAPI31-url.yaml');
  const link = page.getByRole('link', { name: 'Apache 2.0' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'https://www.apache.org/licenses/LICENSE-2.0.html');
});

test('license.oas31.identifier: given identifier field, should render URL using identifier', async ({ page }) => {
  await page.goto('/?url=/documents/features/license-openAPI31-identifier.yaml');
  const link = page.getByRole('link', { name: 'Apache 2.0' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'https://spdx.org/licenses/Apache-2.0.html');
});
