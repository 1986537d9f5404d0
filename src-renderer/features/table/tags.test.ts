import { describe, expect, it } from 'vitest';
import { addTag, removeTag, renameTag, setTagValue, tagRows } from './tags.ts';

const tags = { team: 'checkout', env: 'prod', owner: 'ana' };

describe('editing tags in place', () => {
  it('renames a key without moving it', () => {
    const renamed = renameTag(tags, 1, 'stage');
    expect('tags' in renamed && tagRows(renamed.tags)).toEqual([
      ['team', 'checkout'],
      ['stage', 'prod'],
      ['owner', 'ana'],
    ]);
  });

  it('refuses a key another tag has, which would lose that tag', () => {
    expect(renameTag(tags, 2, 'team')).toEqual({ error: 'Another tag has the key "team"; keys are unique.' });
  });

  it('adds with a free key at the end, changes a value in place, removes one and ends with no tags at all', () => {
    const added = addTag(addTag(tags));
    expect(tagRows(added).map(([k]) => k)).toEqual(['team', 'env', 'owner', 'key', 'key2']);
    expect(tagRows(setTagValue(tags, 0, 'payments'))[0]).toEqual(['team', 'payments']);
    expect(tagRows(removeTag(tags, 0))).toEqual([
      ['env', 'prod'],
      ['owner', 'ana'],
    ]);
    expect(removeTag({ a: '1' }, 0)).toBeUndefined();
  });
});
