/**
 * The design model's public API: the schema and its types, problems, key templates, conditions,
 * parsing, validation and migrations. Import from here, not from the files.
 */
export * from './schema.ts';
export * from './problems.ts';
export * from './key-template.ts';
export * from './condition.ts';
export * from './validate.ts';
export * from './migrate.ts';
export * from './pattern-kinds.ts';
export { averageRatePerSecond, busiestRatePerSecond, hasTrafficShape, hourlyMultipliers, minuteMultipliers, MINUTES_PER_DAY, PROFILE_LABELS, PROFILE_MULTIPLIERS } from './traffic.ts';
export type { AverageSource } from './traffic.ts';
export { addSpike, removeSpike, setProfileHour, setTrafficShape, trafficShapeOf, updateSpike } from './traffic-edits.ts';
export type { TrafficShape } from './traffic-edits.ts';
export { bindingOf, describeKeyUses, gsiKeySourceOf, keySlotsOf } from './key-slots.ts';
export type { KeySlot } from './key-slots.ts';
export { defaultReferenceOf, generatorOfRelation, inheritanceOf, likelyReferencesOf, relationsOf, withInheritance } from './relations.ts';
export type { Inheritance, Relation, RelationGraph } from './relations.ts';
export { conditionValuesOf, enumShares, idDigits, keyValueBound, maxKeyTextBytes, rankShare, valueModelBasis, withEntityValueModel, withValueModel } from './value-model.ts';
export { CATEGORIES, CITIES, COUNTRIES, CURRENCIES, FIRST_NAMES, LAST_NAMES, PRODUCTS, STATUSES, idInitialsOf, kindFromName, wordsOf } from './value-heuristics.ts';
export type { NameKind } from './value-heuristics.ts';
export { gsiKeyAttributes, isMultiAttributeKey, keyPartAttributes, keyPartLabel, partitionKeysOf, sortKeysOf, storedKeyPart } from './gsi-keys.ts';
export type { StoredKeyPart } from './gsi-keys.ts';
export { addAccessPattern, addAttribute, addEntity, addGsi, addLsi, addTable, createDesign, createTable, defaultAutoScalingRange, duplicateAccessPattern, duplicateDesign, moveAccessPattern, newId, removeAccessPattern, removeAttribute, removeEntity, removeGsi, removeLsi, removeTable, renameAttributeReferences, renameDesign, setAutoScaling, setBilling, setKeyBinding, setPricing, updateAccessPattern, updateAttribute, updateEntity, updateGsi, updateLsi, updateTable } from './edits.ts';
export { indexesLeftOut, withinIndexQuota } from './index-quota.ts';
export { addPatternAttributesToEntity, attributesMissingFrom, createEntityForPattern, setPatternEntity } from './pattern-entity.ts';
export { isRecord, listOf, ordinal, quote } from './validate/wording.ts';
export { clipText, formatProblemCount, quoteClipped } from './quoted-text.ts';
export { MAX_DESIGN_BYTES } from './design-size.ts';
