// Ported from swagger-api/swagger-ui test/e2e-cypress/e2e/features/oas3-multiple-servers.cy.js
// ("OpenAPI 3.0 Multiple Servers"); Apache-2.0, see ../README.md.
const { test, expect } = require('@playwright/test');

const doc = '/?url=/documents/features/oas3-multiple-servers.yaml';

async function openTryItOut(page) {
  await page.getByRole('button', { name: 'GET / an operation' }).click();
  await page.getByRole('button', { name: 'Try it out' }).click();
}

async function executeAndExpect(page, baseURL, path) {
  await page.getByRole('button', { name: 'Execute' }).click();
  await expect(page.getByText(`${baseURL}${path}/`, { exact: true })).toBeVisible();
}

test("servers.url-1: should render and execute for server '/test-url-1'", async ({ page, baseURL }) => {
  await page.goto(doc);
  await page.getByRole('combobox').selectOption('/test-url-1');
  await openTryItOut(page);
  await executeAndExpect(page, baseURL, '/test-url-1');
});

test("servers.url-2: should render and execute for server '/test-url-2'", async ({ page, baseURL }) => {
  await page.goto(doc);
  await page.getByRole('combobox').selectOption('/test-url-2');
  await openTryItOut(page);
  await executeAndExpect(page, baseURL, '/test-url-2');
});

test("servers.switch-after-try-it-out: should render and execute for server '/test-url-1' after sequence: select '/test-url-2' -> Try-It-Out -> select '/test-url-1'", async ({ page, baseURL }) => {
  await page.goto(doc);
  await page.getByRole('combobox').selectOption('/test-url-2');
  await openTryItOut(page);
  await page.getByRole('combobox').selectOption('/test-url-1');
  await executeAndExpect(page, baseURL, '/test-url-1');
});
