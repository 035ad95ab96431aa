// A person opens the Extensions view and reads Model Access's details page: the README packaged in the VSIX.
// VS Code renders that README in a webview that only loads https: images (the Markdown sanitizer drops
// relative and data: sources, the page's CSP allows `img-src https: data:`), so a picture shows only through
// the absolute URL vsce wrote for it from package.json's `repository` (…/raw/HEAD/<path>). There is no
// network here: those URLs are served from the files in this repository, which checks that every picture the
// README names exists at the path the URL points to and renders on the page.
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import { e2e } from './session';
import { moveMouseAway, openPalette, screenshot } from './helpers';

const ROOT = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  repository: { url: string };
};
/** What vsce prefixes relative image links with: https://github.com/<owner>/<repo>/raw/HEAD/ */
const RAW_PREFIX = `${manifest.repository.url.replace(/\.git$/, '')}/raw/HEAD/`;

interface Picture {
  src: string;
  width: number;
}

async function readmePictures(frames: Frame[]): Promise<Picture[]> {
  for (const frame of frames) {
    const pictures = await frame
      .evaluate(() =>
        document.querySelector('h1')?.textContent?.includes('Model Access')
          ? Array.from(document.images).map((img) => ({ src: img.getAttribute('src') ?? '', width: img.naturalWidth }))
          : undefined,
      )
      .catch(() => undefined);
    if (pictures) {
      return pictures;
    }
  }
  return [];
}

describe('Extension details page', () => {
  it('shows the README with its pictures, served from the repository URLs vsce wrote', async function () {
    this.timeout(90_000);
    const page = e2e.page;
    const served: string[] = [];
    await e2e.context.route(`${RAW_PREFIX}**`, async (route) => {
      const rel = decodeURIComponent(route.request().url().slice(RAW_PREFIX.length));
      const file = path.join(ROOT, rel);
      served.push(rel);
      if (!rel.startsWith('media/') || !fs.existsSync(file)) {
        await route.fulfill({ status: 404, body: 'not in the repository' });
        return;
      }
      await route.fulfill({ status: 200, contentType: 'image/png', body: fs.readFileSync(file) });
    });
    try {
      // The whole editor area for the page (earlier steps left payloads and answers open).
      await openPalette(page, 'View: Close All Editors');
      await page.locator('.activitybar [aria-label^="Extensions"]').first().click();
      const search = page.locator('.extensions-viewlet .suggest-input-container .monaco-editor').first();
      await search.waitFor({ state: 'visible', timeout: 30_000 });
      await search.click();
      await page.keyboard.type('@installed Model Access');
      // By its name: another installed extension (the e2e probe) mentions Model Access in its description.
      const row = page
        .locator('.extensions-viewlet .monaco-list-row')
        .filter({ has: page.locator('.name', { hasText: /^Model Access$/ }) })
        .first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      await row.click();
      let pictures: Picture[] = [];
      for (let i = 0; i < 100 && (pictures.length === 0 || pictures.some((p) => p.width === 0)); i++) {
        await page.waitForTimeout(200);
        pictures = await readmePictures(page.frames());
      }
      assert.ok(pictures.length >= 2, `the README shows pictures (found ${JSON.stringify(pictures)})`);
      for (const p of pictures) {
        assert.ok(p.src.startsWith(RAW_PREFIX), `${p.src} is an absolute URL under ${RAW_PREFIX}`);
        assert.ok(p.width > 0, `${p.src} rendered (served: ${served.join(', ')})`);
      }
      await moveMouseAway(page);
      await screenshot(page, 'extension-details');
    } finally {
      await e2e.context.unroute(`${RAW_PREFIX}**`);
      await page.keyboard.press('Escape');
    }
  });
});
