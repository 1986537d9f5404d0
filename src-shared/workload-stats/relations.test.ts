import { describe, expect, test } from 'vitest';
import { withValueModel } from '../model/index.ts';
import type { Table } from '../model/index.ts';
import { planPattern } from '../planner/index.ts';
import { costPatterns } from '../costing/index.ts';
import { createSampleStore } from '../sample/index.ts';
import { keySpaceOf } from '../partition/index.ts';
import { issueTracker } from './__fixtures__/issue-tracker.ts';
import { distinctCombinationsOf, entityCountsOf, itemsPerKeyOf } from './index.ts';

const issueOf = (t: Table) => withValueModel(t).entities.find((e) => e.id === 'e-issue')!;

describe('an attribute inherited through a reference', () => {
  test('adds no values to a key: organizationId with projectId has 5,000 combinations, not 50 × 5,000', () => {
    const t = issueTracker();
    const d = distinctCombinationsOf(issueOf(t), ['organizationId', 'projectId'], new Map(), entityCountsOf(t));
    expect(d.count).toBe(5000);
    expect(d.assumption).toContain('Issue.organizationId follows from projectId');
  });

  test('"Count open issues in a project" reads ~133 items (2,000,000 ÷ 3 ÷ 5,000) and 27 RCU with ALL projection', () => {
    const t = issueTracker();
    const plan = planPattern(t, t.accessPatterns[0]!);
    expect(plan.target).toEqual({ kind: 'gsi', name: 'GSI3' });
    expect(plan.itemsRead).toBeCloseTo(2_000_000 / 3 / 5000, 5);
    const cost = costPatterns(t).find((p) => p.patternId === 'ap-count-open')!;
    // The item as the size estimate takes it: PK 17 + SK 7 + GSI3PK 51 + GSI3SK 21 + issueId 16 +
    // projectId 25 + organizationId 30 + status 22 + title (5 + 1,460) = 1,654 B. A Query sums the
    // items it reads and rounds up to 4 KB once: ceil(133.33 × 1,654 / 4,096) = ceil(53.84) = 54
    // units; eventually consistent, half each: 27 RCU.
    // https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
    expect(cost.perRequest.steps.find((s) => s.label.startsWith('Item size of Issue'))?.value).toBe(1654);
    expect(cost.perRequest.value).toBe(27);
  });

  test("the simulator's key space of GSI3 has the 5,000 projects' keys, each with its project's organization", () => {
    const t = issueTracker();
    const modeled = withValueModel(t);
    const space = keySpaceOf(issueOf(t), 'GSI3PK', 2_000_000 / 3, entityCountsOf(modeled))!;
    expect(space.logicalKeys).toBe(5000);
    expect(space.assumptions.join(' ')).toContain('Issue.organizationId follows from projectId');
    expect(space.render(0, 0, 0)).toMatch(/^ORG#o-\d+#PROJECT#p-\d+$/);
  });

  test('turned off (independent), the two multiply again: 2,000,000 ÷ 3 ÷ 250,000 ≈ 2.67 open issues per key', () => {
    const t = issueTracker();
    const issue = t.entities[2]!;
    issue.attributes = issue.attributes.map((a) => (a.name === 'organizationId' ? { ...a, generator: { kind: 'ref', entity: 'e-org', independent: true } } : a));
    expect(planPattern(t, t.accessPatterns[0]!).itemsRead).toBeCloseTo(2_000_000 / 3 / 250_000, 5);
  });

  test('items per key: mean and, under a hot project holding 10 %, the largest', () => {
    const t = issueTracker();
    const issue = t.entities[2]!;
    issue.attributes = issue.attributes.map((a) => (a.name === 'projectId' ? { ...a, generator: { kind: 'ref', entity: 'e-project', distribution: { kind: 'hotKey', share: 0.1 } } } : a));
    const k = itemsPerKeyOf(issueOf(t), ['organizationId', 'projectId'], 2_000_000 / 3, new Map(), entityCountsOf(t));
    expect(k.distinct).toBe(5000);
    expect(k.mean).toBeCloseTo(133.333333, 5);
    expect(k.hottestShare).toBeCloseTo(0.1, 12);
    expect(k.largest).toBeCloseTo(66_666.6667, 3);
  });

  test("sample data: every issue's organizationId is its project's, so a GSI3 partition holds one organization's project", () => {
    const t = issueTracker({ organizations: 20, projects: 400, issues: 20_000 });
    const store = createSampleStore({ formatVersion: 1, id: 'd', name: 'd', tables: [t] }, t.id, { maxItems: 30_000 });
    const total = store.summary().views.find((v) => v.name === 'table')!.itemCount;
    const rows = Array.from({ length: Math.ceil(total / 5000) }, (_, i) => store.items('table', i * 5000, 5000).rows).flat();
    const orgOfProject = new Map(rows.filter((r) => r.entityId === 'e-project').map((r) => [r.attributes['projectId'], r.attributes['organizationId']]));
    const issues = rows.filter((r) => r.entityId === 'e-issue');
    expect(issues.length).toBe(20_000);
    expect(new Set(issues.map((r) => r.attributes['organizationId'])).size).toBeGreaterThan(10);
    for (const r of issues) expect(r.attributes['organizationId']).toBe(orgOfProject.get(r.attributes['projectId']));
  });

  test("a comment's issueId, named after Issue, is one of the issues' ids in their format (not its own i-00000001)", () => {
    const t = issueTracker({ organizations: 2, projects: 10, issues: 1000 });
    t.entities.push({
      id: 'e-comment',
      name: 'Comment',
      itemCount: 20_000,
      attributes: [
        { name: 'commentId', type: 'S', generator: { kind: 'id' } },
        { name: 'issueId', type: 'S' },
      ],
      keys: { PK: { template: 'ISSUE#{issueId}' }, SK: { template: 'COMMENT#{commentId}' } },
    });
    const store = createSampleStore({ formatVersion: 1, id: 'd', name: 'd', tables: [t] }, t.id, { maxItems: 30_000 });
    const total = store.summary().views.find((v) => v.name === 'table')!.itemCount;
    const rows = Array.from({ length: Math.ceil(total / 5000) }, (_, i) => store.items('table', i * 5000, 5000).rows).flat();
    const issueIds = new Set(rows.filter((r) => r.entityId === 'e-issue').map((r) => r.attributes['issueId']));
    const comments = rows.filter((r) => r.entityId === 'e-comment');
    expect(comments.length).toBe(20_000);
    for (const r of comments) expect(issueIds.has(r.attributes['issueId'])).toBe(true);
  });
});
