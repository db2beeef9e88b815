/**
 * What the installers are made from (build/electron-builder.yml) and with (build/icon.*):
 * checked statically, since the installers themselves need Electron's real binaries, which
 * only a machine with network gets (`npm run dist`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

interface BuilderConfig {
  appId: string;
  productName: string;
  extraMetadata: { main: string };
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  buildDependenciesFromSource: boolean;
  linux: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
}

const config = yaml.load(readFileSync(resolve(root, 'build/electron-builder.yml'), 'utf8')) as BuilderConfig;
const manifest = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { main: string; productName: string; scripts: Record<string, string> };

describe('build/electron-builder.yml', () => {
  it('names the app', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect(config.productName).toBe('Planner');
    expect(manifest.productName).toBe('Planner');
  });

  it('builds AppImage and deb on Linux, NSIS on Windows, dmg on macOS', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('starts the built main file', () => {
    expect(config.extraMetadata.main).toBe('out/main/index.js');
    expect(manifest.main).toBe('out/main/index.js');
  });

  it('packs only out/ (and package.json) from the project', () => {
    const included = config.files.filter((pattern) => !pattern.startsWith('!'));
    expect(included.sort()).toEqual(['out/**/*', 'package.json']);
  });

  it('rebuilds better-sqlite3 for Electron when packaging, and unpacks it from the asar', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.buildDependenciesFromSource).toBe(true);
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**/*.node');
  });

  it('is what `npm run dist` uses, after building', () => {
    expect(manifest.scripts.dist).toMatch(/^npm run build && electron-builder --config build\/electron-builder\.yml$/);
  });
});

describe('the icons in build/', () => {
  it('has a 512×512 PNG for Linux and as the source for the others', () => {
    const png = readFileSync(resolve(root, config.linux.icon));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('has a Windows .ico with a 256 px image', () => {
    const ico = readFileSync(resolve(root, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const widths = Array.from({ length: count }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(widths).toContain(256);
  });

  it('has a macOS .icns with 512 and 1024 px images', () => {
    const icns = readFileSync(resolve(root, config.mac.icon));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) types.push(icns.subarray(at, at + 4).toString('latin1'));
    expect(types).toEqual(expect.arrayContaining(['ic09', 'ic10']));
  });

  it('keeps them small', () => {
    for (const icon of [config.linux.icon, config.win.icon, config.mac.icon]) expect(readFileSync(resolve(root, icon)).length).toBeLessThan(64 * 1024);
  });
});
