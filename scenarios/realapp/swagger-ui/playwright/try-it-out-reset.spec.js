// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/plugins/oas3/try-it-out-reset.cy.js
// ("Reset button in try it out"); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

test('try-it-out-reset.defaults: should reset the edited request body value and execute try it out with the default value', async ({ page }) => {
  await page.goto('/?url=/documents/features/oas3-try-it-out-reset.yaml');
  await page.getByRole('button', { name: 'POST /users Create a user' }).click();
  await page.getByRole('button', { name: 'Try it out' }).click();
  const name = page.getByRole('textbox', { name: 'name', exact: true });
  const badge = page.getByRole('textbox', { name: 'badgeid', exact: true });
  await name.fill('not the default name value');
  await badge.fill('not the default badge value');
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.getByRole('button', { name: 'Execute' }).click();
  await expect(name).toHaveValue('default name');
  await expect(name).not.toHaveClass(/invalid/);
  await expect(badge).toHaveValue('12345');
  await expect(badge).not.toHaveClass(/invalid/);
});
