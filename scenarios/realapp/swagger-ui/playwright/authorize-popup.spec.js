// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/a11y/authorize-popup.cy.js
// ("Authorization popup"); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

async function openAuthorizations(page) {
  await page.goto('/?url=/documents/petstore.swagger.yaml');
  await page.getByRole('button', { name: 'Authorize', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Available authorizations' })).toBeVisible();
}

test('authorize-popup.escape: closes the Available authorizations dialog when Escape is pressed', async ({ page }) => {
  await openAuthorizations(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Available authorizations' })).toBeHidden();
});

test('authorize-popup.backdrop: closes the Available authorizations dialog when the backdrop is clicked', async ({ page }) => {
  await openAuthorizations(page);
  // The backdrop has no role or text: force a click at the top bar's Explore button, which
  // the backdrop covers, so the click lands on the backdrop (as upstream's force click does).
  await page.getByRole('button', { name: 'Explore' }).click({ force: true });
  await expect(page.getByRole('heading', { name: 'Available authorizations' })).toBeHidden();
});
