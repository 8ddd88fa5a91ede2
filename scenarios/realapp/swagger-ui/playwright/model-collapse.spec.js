// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/model-collapse.cy.js
// ("Model collapse/expand feature", in OpenAPI 3); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

const doc = '/?deepLinking=true&url=/documents/features/models.openapi.yaml';

test('model-collapse.expanded-on-load: Models section should be expanded on load', async ({ page }) => {
  await page.goto(doc);
  await expect(page.getByRole('button', { name: 'Schemas', expanded: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pet', exact: true })).toBeVisible();
});

test('model-collapse.section-toggle: Models section should collapse and expand when toggled', async ({ page }) => {
  await page.goto(doc);
  const schemas = page.getByRole('button', { name: 'Schemas' });
  await schemas.click();
  await expect(schemas).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('button', { name: 'Order', exact: true })).toHaveCount(0);
  await schemas.click();
  await expect(schemas).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: 'Order', exact: true })).toBeVisible();
});

test('model-collapse.model-toggle: Model should collapse and expand when toggled clicking button', async ({ page }) => {
  await page.goto(doc);
  const user = page.getByRole('button', { name: 'User', exact: true });
  await user.click();
  await expect(page.getByText('userStatus', { exact: true })).toBeVisible();
  await user.click();
  await expect(page.getByText('userStatus', { exact: true })).toHaveCount(0);
});
