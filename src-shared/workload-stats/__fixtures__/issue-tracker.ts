/**
 * The multi-tenant issue tracker of the relations work: 50 organizations, 5,000 projects (100 per
 * organization), 2,000,000 issues (400 per project), a third of them open. GSI3 holds open issues
 * keyed by organization and project (sparse on status = "OPEN", ALL projection). Nothing ties
 * Issue.organizationId to Issue.projectId but their names: the relation graph infers it.
 */
import type { Table } from '../../model/index.ts';

/** The tracker; `counts` scales it down for tests that generate every item. */
export function issueTracker(counts = { organizations: 50, projects: 5000, issues: 2_000_000 }): Table {
  return {
    id: 't-issues',
    name: 'Issues',
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    billing: { mode: 'ON_DEMAND' },
    tableClass: 'STANDARD',
    globalSecondaryIndexes: [
      { id: 'g-3', name: 'GSI3', partitionKey: { name: 'GSI3PK', type: 'S' }, sortKey: { name: 'GSI3SK', type: 'S' }, projection: { type: 'ALL' } },
    ],
    localSecondaryIndexes: [],
    entities: [
      {
        id: 'e-org',
        name: 'Organization',
        itemCount: counts.organizations,
        attributes: [
          { name: 'organizationId', type: 'S', generator: { kind: 'id' } },
          { name: 'name', type: 'S', averageSizeBytes: 20 },
        ],
        keys: { PK: { template: 'ORG#{organizationId}' }, SK: { template: 'ORG' } },
      },
      {
        id: 'e-project',
        name: 'Project',
        itemCount: counts.projects,
        attributes: [
          { name: 'projectId', type: 'S', generator: { kind: 'id' } },
          { name: 'organizationId', type: 'S' },
          { name: 'name', type: 'S', averageSizeBytes: 20 },
        ],
        keys: { PK: { template: 'ORG#{organizationId}' }, SK: { template: 'PROJECT#{projectId}' } },
      },
      {
        id: 'e-issue',
        name: 'Issue',
        itemCount: counts.issues,
        attributes: [
          { name: 'issueId', type: 'S', generator: { kind: 'id' } },
          { name: 'projectId', type: 'S' },
          { name: 'organizationId', type: 'S' },
          { name: 'status', type: 'S', generator: { kind: 'enum', values: ['OPEN', 'CLOSED', 'OTHER'] } },
          { name: 'title', type: 'S', averageSizeBytes: 1460 },
        ],
        keys: {
          PK: { template: 'ISSUE#{issueId}' },
          SK: { template: 'ISSUE' },
          GSI3PK: { template: 'ORG#{organizationId}#PROJECT#{projectId}', when: 'status = "OPEN"' },
          GSI3SK: { template: 'ISSUE#{issueId}', when: 'status = "OPEN"' },
        },
      },
    ],
    accessPatterns: [
      { id: 'ap-count-open', name: 'Count open issues in a project', entityId: 'e-issue', action: 'count', known: ['organizationId', 'projectId'], filter: 'status = "OPEN"', ratePerSecond: 1, consistency: 'eventual' },
    ],
  };
}
