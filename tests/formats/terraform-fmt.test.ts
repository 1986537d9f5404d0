/**
 * The Terraform export of every example and fixture is HCL that `terraform fmt -check` accepts: it
 * parses, and is laid out as fmt lays it out. (`terraform validate` needs the AWS provider, which is
 * downloaded from a registry this machine cannot reach.) Skipped where terraform is not installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toTerraform } from '../../src-shared/formats/index.ts';
import { allDesigns } from './designs.ts';

const isInstalled = spawnSync('terraform', ['version'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'keyplan-terraform-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!isInstalled)('terraform fmt on every Terraform export', { timeout: 120_000 }, () => {
  it('every file parses and is formatted as terraform fmt formats it', () => {
    for (const { name, design } of allDesigns()) writeFileSync(join(dir, `${name}.tf`), toTerraform(design));
    const run = spawnSync('terraform', ['fmt', '-check', '-list=true', dir], { encoding: 'utf8', env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' } });
    expect({ status: run.status, unformatted: run.stdout.trim(), error: run.stderr.replace(/[╷│╵]/g, '').trim().split('\n').filter((l) => /Error/.test(l)) }).toEqual({ status: 0, unformatted: '', error: [] });
  });

  it('rejects broken HCL (so a clean run means something)', () => {
    writeFileSync(join(dir, 'broken.tf'), 'resource "aws_dynamodb_table" "x" {\n  name = "a\n}\n');
    expect(spawnSync('terraform', ['fmt', '-check', join(dir, 'broken.tf')], { encoding: 'utf8' }).status).not.toBe(0);
  });
});
