/**
 * Hand-made single-table designs from published examples, each with its key design as the source
 * lays it out: what the solver's proposals are compared with (the solver gets each with its keys and
 * indexes removed). Item counts, sizes and rates are ours; the keys follow the source.
 */
import type { AccessPattern, Attribute, Design, Entity, GlobalSecondaryIndex } from '../../model/index.ts';

const s = (name: string, extra: Partial<Attribute> = {}): Attribute => ({ name, type: 'S', ...extra });
const n = (name: string, extra: Partial<Attribute> = {}): Attribute => ({ name, type: 'N', ...extra });
const id = (name: string, bytes = 10): Attribute => s(name, { averageSizeBytes: bytes, generator: { kind: 'id' } });
const ref = (name: string, entity: string, cardinality?: number): Attribute => s(name, { averageSizeBytes: 10, generator: { kind: 'ref', entity }, ...(cardinality ? { cardinality } : {}) });
const keys = (pairs: Record<string, string>): Entity['keys'] => Object.fromEntries(Object.entries(pairs).map(([k, t]) => [k, { template: t }]));
const read = (pid: string, entityId: string, known: string[], rate: number, extra: Partial<AccessPattern> = {}): AccessPattern => ({
  id: pid,
  name: pid,
  entityId,
  action: extra.action ?? 'query',
  known,
  ratePerSecond: rate,
  consistency: 'eventual',
  ...extra,
});
const gsi = (name: string, sortKey: boolean, projection: GlobalSecondaryIndex['projection'] = { type: 'ALL' }): GlobalSecondaryIndex => ({
  id: `gsi-${name.toLowerCase()}`,
  name,
  partitionKey: { name: `${name}PK`, type: 'S' },
  ...(sortKey ? { sortKey: { name: `${name}SK`, type: 'S' as const } } : {}),
  projection,
});

function design(name: string, description: string, entities: Entity[], accessPatterns: AccessPattern[], gsis: GlobalSecondaryIndex[]): Design {
  return {
    formatVersion: 1,
    id: `ref-${name.toLowerCase().replace(/\W+/g, '-')}`,
    name,
    description,
    tables: [{ id: 'tbl-main', name: 'Main', partitionKey: { name: 'PK', type: 'S' }, sortKey: { name: 'SK', type: 'S' }, billing: { mode: 'ON_DEMAND' }, tableClass: 'STANDARD', globalSecondaryIndexes: gsis, localSecondaryIndexes: [], entities, accessPatterns }],
  };
}

/**
 * The discussion forum of DynamoDB's sample tables (Forum, Thread, Reply: Developer Guide, "Creating
 * tables and loading data for code examples", and NoSQL Workbench's "Discussion Forum" sample model)
 * in one table: threads in their forum's item collection, replies in their thread's, sorted by time;
 * the replies a user posted through a GSI (the sample's PostedBy index).
 */
export function forum(): Design {
  const entities: Entity[] = [
    { id: 'forum', name: 'Forum', itemCount: 200, attributes: [id('forumId', 8), s('description', { averageSizeBytes: 200 }), n('threads'), n('messages')], keys: keys({ PK: 'FORUM#{forumId}', SK: 'FORUM' }) },
    {
      id: 'thread',
      name: 'Thread',
      itemCount: 400_000,
      attributes: [id('threadId'), ref('forumId', 'forum', 200), s('subject', { averageSizeBytes: 60 }), s('lastPostedAt', { generator: { kind: 'timestamp' } }), n('replies')],
      keys: keys({ PK: 'FORUM#{forumId}', SK: 'THREAD#{lastPostedAt}#{threadId}' }),
    },
    {
      id: 'reply',
      name: 'Reply',
      itemCount: 8_000_000,
      attributes: [id('replyId'), ref('threadId', 'thread', 400_000), s('postedAt', { generator: { kind: 'timestamp' } }), s('postedBy', { averageSizeBytes: 12, cardinality: 100_000 }), s('message', { averageSizeBytes: 400 })],
      keys: keys({ PK: 'THREAD#{threadId}', SK: 'REPLY#{postedAt}#{replyId}', GSI1PK: 'USER#{postedBy}', GSI1SK: 'REPLY#{postedAt}' }),
    },
  ];
  const patterns = [
    read('Get a forum', 'forum', ['forumId'], 100, { action: 'get' }),
    read('Threads of a forum, latest first', 'thread', ['forumId'], 300, { range: { attribute: 'lastPostedAt', operator: '>=' }, order: 'desc', resultSize: 25 }),
    read('Replies of a thread, oldest first', 'reply', ['threadId'], 800, { range: { attribute: 'postedAt', operator: '>=' }, order: 'asc', resultSize: 20 }),
    read('Replies a user posted, latest first', 'reply', ['postedBy'], 40, { range: { attribute: 'postedAt', operator: '>=' }, order: 'desc', resultSize: 20 }),
    read('Post a reply', 'reply', ['threadId', 'postedAt', 'replyId', 'postedBy'], 60, { action: 'put' }),
    read('Start a thread', 'thread', ['forumId', 'lastPostedAt', 'threadId'], 5, { action: 'put' }),
  ];
  return design('Discussion forum', 'Forum, Thread and Reply of the DynamoDB sample tables, as one table.', entities, patterns, [gsi('GSI1', true)]);
}

/**
 * GameScores, the Developer Guide's global secondary index example ("Using Global Secondary Indexes
 * in DynamoDB"): a user's score per game on the table (UserId, GameTitle), the top scores of a game
 * through the GameTitleIndex (GameTitle, TopScore) projecting what the leaderboard shows.
 */
export function gameScores(): Design {
  const score: Entity = {
    id: 'score',
    name: 'GameScore',
    itemCount: 5_000_000,
    attributes: [
      s('userId', { averageSizeBytes: 10, cardinality: 1_000_000 }),
      s('gameTitle', { averageSizeBytes: 16, generator: { kind: 'enum', values: ['Galaxy Invaders', 'Meteor Blasters', 'Starship X', 'Alien Adventure', 'Attack Ships'] } }),
      n('topScore', { generator: { kind: 'number', min: 0, max: 100_000 } }),
      s('topScoreDateTime', { generator: { kind: 'timestamp' } }),
      n('wins'),
      n('losses'),
    ],
    keys: { PK: { template: 'USER#{userId}' }, SK: { template: 'GAME#{gameTitle}' }, GSI1PK: { template: 'GAME#{gameTitle}' }, GSI1SK: { template: '{topScore}' } },
  };
  const patterns = [
    read("A user's score in a game", 'score', ['userId', 'gameTitle'], 500, { action: 'get' }),
    read("A user's scores in every game", 'score', ['userId'], 100, { resultSize: 5 }),
    read('Top scores of a game', 'score', ['gameTitle'], 50, { range: { attribute: 'topScore', operator: '>=' }, order: 'desc', resultSize: 10, returns: ['userId', 'topScore', 'wins', 'losses'] }),
    read('Record a game', 'score', ['userId', 'gameTitle'], 300, { action: 'update', updates: ['topScore', 'topScoreDateTime', 'wins', 'losses'] }),
  ];
  const index: GlobalSecondaryIndex = { id: 'gsi-gsi1', name: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'N' }, projection: { type: 'INCLUDE', nonKeyAttributes: ['userId', 'topScore', 'wins', 'losses'] } };
  return design('Game scores', "GameScores of the Developer Guide's GSI example, as one table.", [score], patterns, [index]);
}

/**
 * Device telemetry in the shape of the AWS Database Blog's time-series and IoT guidance ("Design
 * patterns for high-volume, time-series data in Amazon DynamoDB"; "Choosing the right DynamoDB
 * partition key"): readings in their device's item collection sorted by time, and a sparse GSI of
 * the open alerts only (the Developer Guide's sparse index pattern).
 */
export function telemetry(): Design {
  const entities: Entity[] = [
    { id: 'device', name: 'Device', itemCount: 50_000, attributes: [id('deviceId'), s('model', { averageSizeBytes: 12 }), s('site', { averageSizeBytes: 10, cardinality: 500 })], keys: keys({ PK: 'DEVICE#{deviceId}', SK: 'DEVICE' }) },
    {
      id: 'reading',
      name: 'Reading',
      itemCount: 50_000_000,
      attributes: [ref('deviceId', 'device', 50_000), s('at', { generator: { kind: 'timestamp' } }), n('temperature'), n('humidity')],
      keys: keys({ PK: 'DEVICE#{deviceId}', SK: 'READING#{at}' }),
    },
    {
      id: 'alert',
      name: 'Alert',
      itemCount: 200_000,
      attributes: [id('alertId'), ref('deviceId', 'device', 50_000), s('raisedAt', { generator: { kind: 'timestamp' } }), s('status', { generator: { kind: 'enum', values: ['OPEN', 'RESOLVED'], weights: [1, 19] } }), s('detail', { averageSizeBytes: 120 })],
      keys: {
        PK: { template: 'DEVICE#{deviceId}' },
        SK: { template: 'ALERT#{raisedAt}#{alertId}' },
        GSI1PK: { template: 'STATUS#{status}', when: 'status = "OPEN"' },
        GSI1SK: { template: '{raisedAt}', when: 'status = "OPEN"' },
      },
    },
  ];
  const patterns = [
    read('Get a device', 'device', ['deviceId'], 50, { action: 'get' }),
    read('Readings of a device in a time range', 'reading', ['deviceId'], 200, { range: { attribute: 'at', operator: 'between' }, resultSize: 60 }),
    read('Alerts of a device, latest first', 'alert', ['deviceId'], 20, { range: { attribute: 'raisedAt', operator: '>=' }, order: 'desc', resultSize: 10 }),
    read('Open alerts, oldest first', 'alert', ['status'], 2, { range: { attribute: 'raisedAt', operator: '>=' }, order: 'asc', filter: 'status = "OPEN"', resultSize: 50 }),
    read('Record a reading', 'reading', ['deviceId', 'at'], 2_000, { action: 'put' }),
    read('Raise an alert', 'alert', ['deviceId', 'raisedAt', 'alertId'], 1, { action: 'put' }),
  ];
  return design('Device telemetry', 'Devices, their readings and a sparse index of open alerts, as one table.', entities, patterns, [gsi('GSI1', true, { type: 'ALL' })]);
}
