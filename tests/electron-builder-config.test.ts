/**
 * electron-builder.yml, read and validated by electron-builder's own loader and schema (there is no
 * public API for this: the functions come from app-builder-lib, the version electron-builder pins),
 * and its Electron fuses as docs/electron-security.md describes them.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..');

interface BuilderConfig {
  asar?: boolean;
  files?: unknown;
  electronFuses?: Record<string, boolean>;
  [key: string]: unknown;
}

const builderRequire = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = builderRequire('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};
const quietLogger = { isEnabled: false, add() {} };

const config = await getConfig(root, resolve(root, 'electron-builder.yml'), null);

describe('electron-builder.yml', () => {
  test("passes electron-builder's own schema", async () => {
    await expect(validateConfiguration(config, quietLogger)).resolves.toBeUndefined();
  });

  test('the schema check would catch a misspelt fuse', async () => {
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } };
    await expect(validateConfiguration(misspelt, quietLogger)).rejects.toThrow(/electronFuses/);
  });

  test('packs the app into app.asar, which two of the fuses rely on', () => {
    expect(config.asar).toBe(true);
  });

  test.each([
    ['runAsNode', false],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['enableCookieEncryption', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['onlyLoadAppFromAsar', true],
  ])('sets the %s fuse to %s', (fuse, value) => {
    expect(config.electronFuses?.[fuse]).toBe(value);
  });

  test('leaves grantFileProtocolExtraPrivileges at its default while the renderer is loaded from file://', () => {
    expect(config.electronFuses).not.toHaveProperty('grantFileProtocolExtraPrivileges');
  });
});
