import { describe, expect, test } from 'vitest';
import { inheritanceOf, likelyReferencesOf, relationsOf, withInheritance } from './relations.ts';
import type { Attribute, Entity } from './schema.ts';
import { withValueModel } from './value-model.ts';
import { createDesign, createTable } from './edits.ts';
import { validateDesign } from './validate.ts';

const entity = (id: string, name: string, attributes: Attribute[]): Entity => ({ id, name, itemCount: 10, attributes, keys: {} });
const s = (name: string, generator?: Attribute['generator']): Attribute => (generator ? { name, type: 'S', generator } : { name, type: 'S' });

const org = entity('org', 'Organization', [s('organizationId', { kind: 'id' })]);
const project = entity('project', 'Project', [s('projectId', { kind: 'id' }), s('organizationId')]);
const issue = entity('issue', 'Issue', [s('issueId', { kind: 'id' }), s('projectId'), s('organizationId'), s('status')]);
const user = entity('user', 'User', [s('userId', { kind: 'id' })]);

describe('likelyReferencesOf', () => {
  test('names the entity an id attribute is named after, never the entity itself', () => {
    const all = [org, project, issue, user];
    expect(likelyReferencesOf('issueId', all).map((e) => e.name)).toEqual(['Issue']);
    expect(likelyReferencesOf('issueId', all, 'issue')).toEqual([]);
    expect(likelyReferencesOf('projectId', all, 'issue').map((e) => e.name)).toEqual(['Project']);
    expect(likelyReferencesOf('ownerId', all).map((e) => e.name)).toEqual(['User']);
    expect(likelyReferencesOf('status', all)).toEqual([]);
  });
});

describe('relationsOf', () => {
  test('infers Issue.organizationId inherited through projectId, and Project.organizationId a reference', () => {
    const graph = relationsOf([org, project, issue]);
    expect(graph.get('project')?.get('organizationId')).toEqual({ entityId: 'org', isStated: false });
    expect(graph.get('issue')?.get('projectId')).toEqual({ entityId: 'project', isStated: false });
    expect(graph.get('issue')?.get('organizationId')).toEqual({ entityId: 'org', isStated: false, via: { attribute: 'projectId', entityId: 'project', isStated: false } });
    expect(graph.get('issue')?.has('status')).toBe(false);
  });

  test('an explicit opt-out (independent) keeps the reference drawn on its own', () => {
    const optedOut = { ...issue, attributes: issue.attributes.map((a) => (a.name === 'organizationId' ? s('organizationId', { kind: 'ref', entity: 'org', independent: true }) : a)) };
    expect(relationsOf([org, project, optedOut]).get('issue')?.get('organizationId')).toEqual({ entityId: 'org', isStated: true });
  });

  test('the value model writes the graph into generators, idempotently', () => {
    const table = { ...createTable('T'), entities: [org, project, issue] };
    const modeled = withValueModel(table);
    const generatorOf = (e: string, a: string) => modeled.entities.find((x) => x.id === e)?.attributes.find((x) => x.name === a)?.generator;
    expect(generatorOf('issue', 'organizationId')).toEqual({ kind: 'ref', entity: 'org', via: 'projectId' });
    expect(generatorOf('issue', 'projectId')).toEqual({ kind: 'ref', entity: 'project' });
    expect(withValueModel({ ...modeled })).toEqual(modeled);
  });
});

describe('inheritanceOf and withInheritance', () => {
  test('shows the inferred inheritance, turns it off into an explicit opt-out, and on again', () => {
    const all = [org, project, issue];
    expect(inheritanceOf(all, 'issue', 'organizationId')).toEqual({ via: 'projectId', parentName: 'Project', entityId: 'org', isOn: true });
    const off = withInheritance(undefined, 'org', false);
    expect(off).toEqual({ kind: 'ref', entity: 'org', independent: true });
    const optedOut = [org, project, { ...issue, attributes: issue.attributes.map((a) => (a.name === 'organizationId' ? { ...a, generator: off } : a)) }];
    expect(inheritanceOf(optedOut, 'issue', 'organizationId')).toEqual({ via: 'projectId', parentName: 'Project', entityId: 'org', isOn: false });
    expect(relationsOf(optedOut).get('issue')?.get('organizationId')?.via).toBeUndefined();
    expect(withInheritance(off, 'org', true)).toEqual({ kind: 'ref', entity: 'org' });
    expect(inheritanceOf(all, 'issue', 'status')).toBeUndefined();
  });
});

describe('validation of a stated via', () => {
  test('a via naming no reference, or a parent without the attribute, is a problem at generator.via', () => {
    const design = (via: string) => {
      const d = createDesign('D');
      const table = d.tables[0]!;
      const keys = { PK: { template: 'X#{issueId}' }, SK: { template: 'X' } };
      const stated = { ...issue, keys, attributes: issue.attributes.map((a) => (a.name === 'organizationId' ? s('organizationId', { kind: 'ref', entity: 'org', via }) : a)) };
      return { ...d, tables: [{ ...table, entities: [{ ...org, keys }, { ...project, keys }, stated] }] };
    };
    const problemsOf = (via: string) => validateDesign(design(via)).filter((p) => p.path.endsWith('generator.via'));
    expect(problemsOf('projectId')).toEqual([]);
    expect(problemsOf('status')).toMatchObject([{ code: 'model.unknownAttribute', path: 'tables[0].entities[2].attributes[2].generator.via' }]);
  });
});
