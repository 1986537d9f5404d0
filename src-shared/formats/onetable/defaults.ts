/**
 * What a OneTable schema leaves unsaid and the import fills in, and what both directions agree on:
 * the extension Keyplan writes into a schema (`toOneTable`) and reads back (`fromOneTable`), and the
 * ids `generate: "ulid"` stands for.
 */

/** Items per entity when a schema says nothing about volume (always): set real counts after importing. */
export const ONETABLE_DEFAULT_ITEM_COUNT = 1000;
/** Requests per second of a pattern read from a saved query, which holds no rate. */
export const ONETABLE_DEFAULT_RATE_PER_SECOND = 1;
/** The share of items assumed to carry an optional field (not required, no default, not generated). */
export const ONETABLE_OPTIONAL_PRESENCE = 0.5;
/** The table's name when the schema does not say (OneTable takes it from `new Table({name})`). */
export const ONETABLE_DEFAULT_TABLE_NAME = 'AppTable';
/** The design's name when the schema has none. */
export const ONETABLE_DEFAULT_DESIGN_NAME = 'OneTable schema';
/** OneTable's type field when `params.typeField` is not set. */
export const ONETABLE_DEFAULT_TYPE_FIELD = '_type';
/** What `toOneTable` writes under `extensions`, and `fromOneTable` reads back. */
export const ONETABLE_EXTENSION = 'keyplan';
/**
 * A ULID's length, 26 characters of Crockford base 32 (https://github.com/ulid/spec): `generate:
 * "ulid"` is read as 26-digit ids without prefix, and such ids are written back as `generate: "ulid"`.
 */
export const ULID_LENGTH = 26;
