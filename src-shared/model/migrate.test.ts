import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, OLDEST_FORMAT_VERSION, type MigrationStep } from './migrate.ts';
import { FORMAT_VERSION } from './schema.ts';

describe('migrate', () => {
  it('returns a current document unchanged', () => {
    const doc = { formatVersion: FORMAT_VERSION, tables: [] };
    const r = migrate(doc);
    expect(r.ok && r.value).toBe(doc);
  });

  it('turns the version-0 single table into a list of tables, without changing the input', () => {
    const doc = { formatVersion: 0, id: 'd', name: 'n', table: { id: 't' } };
    const copy = structuredClone(doc);
    expect(migrate(doc)).toEqual({ ok: true, value: { formatVersion: 1, id: 'd', name: 'n', tables: [{ id: 't' }] } });
    expect(doc).toEqual(copy);
  });

  it('gives a version-0 draft without a table an empty list, for the structure check to report', () => {
    expect(migrate({ formatVersion: 0 })).toEqual({ ok: true, value: { formatVersion: 1, tables: [] } });
  });

  it.each<[string, unknown, string]>([
    ['a newer version', FORMAT_VERSION + 1, 'model.unsupportedVersion'],
    ['a fractional version', 0.5, 'model.invalidVersion'],
    ['a negative version', -1, 'model.invalidVersion'],
    ['a text version', '1', 'model.invalidVersion'],
    ['no version', undefined, 'model.invalidVersion'],
    ['null', null, 'model.invalidVersion'],
  ])('rejects %s', (_name, formatVersion, code) => {
    const r = migrate({ formatVersion });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map(({ code, path }) => ({ code, path }))).toEqual([{ code, path: 'formatVersion' }]);
  });

  it('names the file version and the newest this build reads', () => {
    const r = migrate({ formatVersion: 9 });
    expect(r.ok ? '' : r.errors[0]?.message).toMatch(new RegExp(`version 9.*up to ${FORMAT_VERSION}`));
  });

  it('runs the steps in order, one version at a time', () => {
    const seen: number[] = [];
    const step = (from: number): MigrationStep => ({ from, to: from + 1, up: (doc) => (seen.push(from), { ...doc, formatVersion: from + 1 }) });
    const r = migrate({ formatVersion: -2 }, [step(0), step(-2), step(-1)]);
    expect(r.ok).toBe(true);
    expect(seen).toEqual([-2, -1, 0]);
  });

  it('has a chain of steps from the oldest version up to the current one', () => {
    for (let v = OLDEST_FORMAT_VERSION; v < FORMAT_VERSION; v += 1) {
      const step = MIGRATIONS.find((s) => s.from === v);
      expect(step?.to).toBe(v + 1);
    }
  });
});
