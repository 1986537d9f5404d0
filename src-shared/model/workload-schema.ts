/**
 * The workload half of the design file's schema: how values and traffic spread (Distribution), how an
 * attribute's sample values are generated, and a pattern's daily traffic (docs/traffic.md). Re-exported by schema.ts.
 */
import { Type, type Static } from '@sinclair/typebox';

/**
 * How values (of a key, or of the keys requests go to) spread: evenly; by Zipf's law with exponent
 * `s` (rank r gets a share ∝ 1 / r^s); one hot value taking `share` of everything, the rest even;
 * or time-based, where the newest value ("today") takes the new writes.
 */
export const Distribution = Type.Union(
  [
    Type.Object({ kind: Type.Literal('uniform') }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('zipf'), exponent: Type.Number({ exclusiveMinimum: 0, maximum: 10 }) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('hotKey'), share: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('today') }, { additionalProperties: false }),
  ],
  { description: 'How values or traffic spread over keys.' },
);
export type Distribution = Static<typeof Distribution>;

export const GENERATOR_KINDS = ['id', 'uuid', 'name', 'email', 'date', 'timestamp', 'number', 'enum', 'ref', 'constant', 'text'] as const;
export const Generator = Type.Object(
  {
    kind: Type.Union(GENERATOR_KINDS.map((k) => Type.Literal(k))),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    values: Type.Optional(Type.Array(Type.String())),
    weights: Type.Optional(Type.Array(Type.Number({ minimum: 0 }))),
    entity: Type.Optional(Type.String({ description: 'For kind "ref": the referenced entity id.' })),
    via: Type.Optional(
      Type.String({
        description:
          'For kind "ref": inherited through this reference attribute of the same entity: the value is the referenced item\'s own value of this attribute (Issue.organizationId via projectId is its project\'s organizationId).',
      }),
    ),
    independent: Type.Optional(
      Type.Boolean({ description: 'For kind "ref": true keeps the reference drawn on its own, where it would otherwise be inherited through another reference.' }),
    ),
    value: Type.Optional(Type.String()),
    prefix: Type.Optional(Type.String({ description: 'For kind "id": the text before the number, e.g. "u-" (default: the name\'s initials and a dash).' })),
    width: Type.Optional(Type.Integer({ minimum: 1, maximum: 38, description: 'For kind "id": the digits the number is zero-padded to (default 6).' })),
    length: Type.Optional(Type.Integer({ minimum: 0 })),
    distribution: Type.Optional(Distribution),
  },
  { additionalProperties: false, description: 'How sample values of this attribute are generated.' },
);
export type Generator = Static<typeof Generator>;

/** The daily shapes a pattern's traffic can take (docs/traffic.md): each is 24 hourly multipliers of the peak. */
export const TRAFFIC_PROFILE_KINDS = ['flat', 'businessHours', 'eveningPeak', 'nightlyBatch', 'custom'] as const;
export type TrafficProfileKind = (typeof TRAFFIC_PROFILE_KINDS)[number];

/** Hours in a day: a profile has one multiplier per hour, 00:00–01:00 first. */
export const HOURS_PER_DAY = 24;

/** The most spikes one pattern may state. */
export const MAX_SPIKES = 24;

/** The most a spike may multiply its hour's rate by. */
export const MAX_SPIKE_HEIGHT = 1000;

/**
 * A pattern's rate through the day: at hour h the pattern runs at `ratePerSecond` × the profile's
 * multiplier for h (each 0–1, so `ratePerSecond` stays the peak). A named kind brings its own 24
 * multipliers; `custom` states them in `hourly`.
 */
export const TrafficProfile = Type.Object(
  {
    kind: Type.Union(TRAFFIC_PROFILE_KINDS.map((k) => Type.Literal(k)), {
      description: 'flat, businessHours, eveningPeak, nightlyBatch, or custom (then `hourly` gives the 24 multipliers).',
    }),
    hourly: Type.Optional(
      Type.Array(Type.Number({ minimum: 0, maximum: 1 }), {
        minItems: HOURS_PER_DAY,
        maxItems: HOURS_PER_DAY,
        description: 'For custom: 24 multipliers of the peak, 0–1, hour 0 (00:00–01:00) first.',
      }),
    ),
  },
  { additionalProperties: false, description: "The pattern's daily profile (docs/traffic.md)." },
);
export type TrafficProfile = Static<typeof TrafficProfile>;

/** A burst of traffic: the rate of the hour × `height` for `durationMinutes` from the start of `atHour`. */
export const TrafficSpike = Type.Object(
  {
    height: Type.Number({ minimum: 1, maximum: MAX_SPIKE_HEIGHT, description: 'How many times the hour\'s rate, 1–1,000.' }),
    durationMinutes: Type.Integer({ minimum: 1, maximum: 1440, description: 'How long, in minutes, 1–1,440.' }),
    atHour: Type.Integer({ minimum: 0, maximum: 23, description: 'The hour of the day it starts, 0–23.' }),
  },
  { additionalProperties: false },
);
export type TrafficSpike = Static<typeof TrafficSpike>;
