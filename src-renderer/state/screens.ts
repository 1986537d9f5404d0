/** The screens of the workflow, in the order a designer uses them. */
export interface Screen {
  id: ScreenId;
  label: string;
  /** Whether this build has the screen; the others say so plainly instead of pretending. */
  isBuilt: boolean;
  /** What the screen will do, shown while it is not built yet. */
  summary: string;
}

export type ScreenId =
  | 'patterns'
  | 'entities'
  | 'table'
  | 'data'
  | 'costs'
  | 'partitions'
  | 'compare'
  | 'sheet'
  | 'json'
  | 'run';

export const SCREENS: readonly Screen[] = [
  {
    id: 'patterns',
    label: 'Access patterns',
    isBuilt: true,
    summary:
      'List what the application reads and writes and how often; each pattern shows the operation that serves it (GetItem, Query, Scan), its RCU/WCU and its monthly cost.',
  },
  {
    id: 'entities',
    label: 'Entities & keys',
    isBuilt: true,
    summary: 'Entities, their attributes, and the key templates that place them in the table and its indexes.',
  },
  {
    id: 'table',
    label: 'Table & indexes',
    isBuilt: true,
    summary: 'Table name, keys, billing, table class, TTL, streams, GSIs and LSIs with their projections.',
  },
  {
    id: 'data',
    label: 'Data',
    isBuilt: true,
    summary: 'Generated sample items in the aggregate view: grouped by partition key, sorted by sort key, one tab per index.',
  },
  {
    id: 'costs',
    label: 'Costs',
    isBuilt: true,
    summary: 'Per pattern and in total: reads, writes and storage, on-demand against provisioned, each number with its derivation.',
  },
  {
    id: 'partitions',
    label: 'Partitions',
    isBuilt: true,
    summary: 'How keys and traffic spread over partitions, where the design throttles, and what write sharding would change.',
  },
  {
    id: 'compare',
    label: 'Compare',
    isBuilt: true,
    summary: 'Two or more designs, or two revisions of one, side by side with the better value of each row marked.',
  },
  {
    id: 'sheet',
    label: 'Design sheet',
    isBuilt: true,
    summary:
      'The review page: each entity\'s key templates for the table and every index, each access pattern\'s index, key condition, filter, units and monthly cost, and the table settings; export it as Markdown or HTML.',
  },
  {
    id: 'json',
    label: 'Raw JSON',
    isBuilt: true,
    summary: 'The whole design in an editor with its JSON Schema: completion, hover and markers.',
  },
  {
    id: 'run',
    label: 'Run',
    isBuilt: true,
    summary:
      'Run every access pattern on a real DynamoDB engine (embedded, DynamoDB Local or AWS) with seeded sample items, and set the measured units beside the predicted ones.',
  },
];
