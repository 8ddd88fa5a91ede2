// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/oas-badge.cy.js
// ("OpenAPI Badge"); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

const cases = [
  ['oas-badge.swagger2', 'Swagger 2.0', '/documents/features/info-openAPI2.yaml', 'OAS 2.0'],
  ['oas-badge.oas30', 'OpenAPI 3.0.x', '/documents/petstore-expanded.openapi.yaml', 'OAS 3.0'],
  ['oas-badge.oas31', 'OpenAPI 3.1.0', '/documents/features/info-openAPI31.yaml', 'OAS 3.1'],
];

for (const [id, what, url, badge] of cases) {
  test(`${id}: should display light green badge with version indicator for ${what}`, async ({ page }) => {
    await page.goto(`/?url=${url}`);
    await expect(page.getByText(badge, { exact: true })).toBeVisible();
  });
}
