import { statSync } from 'node:fs';
import { useBrowserSandbox } from './support/browser';

jest.setTimeout(60_000);

describe('Swagger UI at /docs in headless Chromium', () => {
  const web = useBrowserSandbox();

  it('renders every operation of the document, grouped by tag, with the bearer token settable', async () => {
    const page = await web.browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 2400 });
    await page.goto(`${web.base}/docs`);
    await page.locator('.opblock').first().waitFor();

    const document = (await (await fetch(`${web.base}/docs-json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(document.paths).reduce((count: number, methods) => count + Object.keys(methods).length, 0);
    expect(await page.locator('.opblock').count()).toBe(operations);
    const tags = await page.locator('.opblock-tag > a span').allTextContents();
    expect(tags.map((tag) => tag.trim())).toEqual(
      expect.arrayContaining(['Health', 'Consents', 'Account information', 'Payment initiation', 'Sandbox control']),
    );
    expect(await page.getByRole('button', { name: 'Authorize' }).count()).toBe(1);
    const summaries = await page.locator('.opblock-summary-path').allTextContents();
    expect(summaries).toEqual(
      expect.arrayContaining(['/v1/consents', '/v1/accounts', '/v1/payments/sepa-credit-transfers', '/sandbox/clock']),
    );

    const screenshot = `${web.sandbox.database}-docs.png`;
    await page.screenshot({ path: screenshot, fullPage: false });
    expect(statSync(screenshot).size).toBeGreaterThan(20_000); // a rendered page, not a blank one
    await page.close();
  });
});
