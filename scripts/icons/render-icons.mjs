#!/usr/bin/env node
/**
 * The app icon from its one source, resources/icons/icon.svg: PNGs for the window and packages
 * (resources/icons/icon-<size>.png) and the favicon `serve` and the window's page use
 * (src/renderer/public/favicon.ico, PNG images inside an ICO, and icon.svg beside it), and the
 * window's icon (src/renderer/public/icon.png: it ships in out/renderer, which main reads).
 * Rendered by Debian's Chromium through Playwright (no image tool needed); run after editing the
 * SVG: `node scripts/icons/render-icons.mjs`. The outputs are committed (small).
 */
import { chromium } from '@playwright/test'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..', '..')
const source = join(root, 'resources', 'icons', 'icon.svg')
const PNG_SIZES = [16, 32, 48, 64, 128, 256, 512]
const ICO_SIZES = [16, 32, 48]

/** An ICO file holding PNG images (Windows Vista and every browser read PNG entries). */
function icoOf(images) {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(images.length, 4)
  const entries = []
  let offset = 6 + 16 * images.length
  for (const { size, png } of images) {
    const e = Buffer.alloc(16)
    e.writeUInt8(size >= 256 ? 0 : size, 0)
    e.writeUInt8(size >= 256 ? 0 : size, 1)
    e.writeUInt8(0, 2)
    e.writeUInt8(0, 3)
    e.writeUInt16LE(1, 4)
    e.writeUInt16LE(32, 6)
    e.writeUInt32LE(png.length, 8)
    e.writeUInt32LE(offset, 12)
    offset += png.length
    entries.push(e)
  }
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)])
}

const svg = readFileSync(source, 'utf8')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
})
try {
  const page = await browser.newPage()
  const pngs = new Map()
  for (const size of PNG_SIZES) {
    await page.setViewportSize({ width: size, height: size })
    const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="${data}" width="${size}" height="${size}" style="display:block"></body></html>`,
    )
    await page.locator('img').evaluate((img) => img.decode())
    const png = await page.screenshot({
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    })
    pngs.set(size, png)
    writeFileSync(join(root, 'resources', 'icons', `icon-${size}.png`), png)
  }
  writeFileSync(
    join(root, 'src', 'renderer', 'public', 'favicon.ico'),
    icoOf(ICO_SIZES.map((size) => ({ size, png: pngs.get(size) }))),
  )
  copyFileSync(source, join(root, 'src', 'renderer', 'public', 'icon.svg'))
  // The window icon (Electron cannot read SVG), shipped with the built renderer.
  writeFileSync(join(root, 'src', 'renderer', 'public', 'icon.png'), pngs.get(256))
} finally {
  await browser.close()
}
