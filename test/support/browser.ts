import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { freePort } from './server-process';
import { removeDatabase, Sandbox, startSandbox } from './sandbox';

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A headless Chromium: the one jest's global setup found (find-browser.ts), never one downloaded by a test tool. */
export async function openBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'psd2-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH,
    headless: true,
    // Without the networking switches Chromium keeps calling home, which this sandboxed machine refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a browser test drives: the app listening on loopback, PUBLIC_BASE_URL its address, and a headless Chromium. */
export interface BrowserSandbox {
  sandbox: Sandbox;
  browser: Browser;
  base: string;
}

/** One BrowserSandbox for the enclosing describe block: started before its tests, closed and deleted after them. */
export function useBrowserSandbox(settings: Record<string, string> = {}): BrowserSandbox {
  const web = {} as BrowserSandbox;
  beforeAll(async () => {
    const port = await freePort();
    web.base = `http://127.0.0.1:${port}`;
    web.sandbox = await startSandbox({ ...settings, PUBLIC_BASE_URL: web.base });
    await web.sandbox.app.listen(port, '127.0.0.1');
    web.browser = await openBrowser();
  });
  afterAll(async () => {
    await web.browser?.close();
    await web.sandbox?.close();
    if (web.sandbox) await removeDatabase(web.sandbox.database);
  });
  return web;
}

/** The TPP's callback: records every request it gets and answers a small page. */
export interface TppServer {
  base: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startTppServer(): Promise<TppServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>TPP</title><h1>Back at the TPP</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
