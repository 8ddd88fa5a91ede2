// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/external-docs.cy.js
// ("External docs feature", in OpenAPI 3); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

const doc = '/?url=/documents/features/external-docs.openapi.yaml';

test('external-docs.root: for Root, should display link to external docs with description', async ({ page }) => {
  await page.goto(doc);
  const link = page.getByRole('link', { name: 'Read external docs' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'http://swagger.io/');
});

test('external-docs.tag: for Tags, should display link to external docs with description', async ({ page }) => {
  await page.goto(doc);
  const tag = page.getByRole('heading', { name: /^pet Everything about your Pets/ });
  const link = tag.getByRole('link', { name: 'Pet Documentation' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'http://swagger.io/');
});

test('external-docs.tag-no-description: for Tags, should display link to external docs without description', async ({ page }) => {
  await page.goto(doc);
  const tag = page.getByRole('heading', { name: /^petWithoutDescription/ });
  const link = tag.getByRole('link', { name: 'http://swagger.io' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'http://swagger.io/');
});

test('external-docs.schema-object: for Schemas, Object Schema, should display link with description', async ({ page }) => {
  await page.goto(doc);
  await page.getByRole('button', { name: 'Object', exact: true }).click();
  const link = page.getByRole('link', { name: 'Object Docs' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'http://swagger.io/');
});

test('external-docs.operation: for Operation, should display link to external docs with description', async ({ page }) => {
  await page.goto(doc);
  await page.getByRole('button', { name: 'PUT /pet Update an existing pet' }).click();
  await expect(page.getByText('More details about putting a pet')).toBeVisible();
  // The operation's link is the first "http://swagger.io" link (the petWithoutDescription
  // tag's comes later in the page).
  await expect(page.getByRole('link', { name: 'http://swagger.io' }).first()).toHaveAttribute('href', 'http://swagger.io/');
});
