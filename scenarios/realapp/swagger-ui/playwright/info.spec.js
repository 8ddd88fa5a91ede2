// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/info.cy.js
// ("Render Info Component"); Apache-2.0, see ../README.md. Each test's title starts with the
// id of its fastbrowser scenario (../scenarios/<id>.json).
const { test, expect } = require('@playwright/test');

const docs = {
  oas2: { url: '/documents/features/info-openAPI2.yaml', title: 'OpenAPI 2.0 Info Object' },
  oas30: { url: '/documents/features/info-openAPI30.yaml', title: 'OpenAPI 3.0 Info Object' },
  oas31: { url: '/documents/features/info-openAPI31.yaml', title: 'OpenAPI 3.1 Info Object' },
};

for (const [v, doc] of Object.entries(docs)) {
  test.describe(`Render Info Component ${v}`, () => {
    test(`info.${v}.description: should render Info Description`, async ({ page }) => {
      await page.goto(`/?url=${doc.url}`);
      await expect(page.getByText('This is a sample')).toBeVisible();
    });

    test(`info.${v}.main-link-rel: should render Info Main anchor target xss link with safe \`rel\` attributes`, async ({ page }) => {
      await page.goto(`/?url=${doc.url}`);
      const link = page.getByRole('link', { name: doc.url });
      await expect(link).toHaveAttribute('rel', /noopener/);
      await expect(link).toHaveAttribute('rel', /noreferrer/);
      await expect(link).toHaveAttribute('target', '_blank');
    });

    if (v === 'oas31') {
      test(`info.${v}.summary: should render Info Summary`, async ({ page }) => {
        await page.goto(`/?url=${doc.url}`);
        await expect(page.getByText('new 3.1.x specific field')).toBeVisible();
        await expect(page.getByText('This is a sample')).toBeVisible();
      });
    } else {
      test(`info.${v}.no-summary: should not render Info Summary (an OpenAPI 3.1 field)`, async ({ page }) => {
        await page.goto(`/?url=${doc.url}`);
        // Wait for the document to render before asserting an absence.
        await expect(page.getByRole('heading', { level: 1, name: doc.title })).toBeVisible();
        await expect(page.getByText('field should not render')).toHaveCount(0);
      });
    }
  });
}
