/** The assumptions behind the size and share estimates, in the words shown beside the figures. */

/** Assumption texts of the estimates. */
export const ESTIMATE_ASSUMPTIONS = {
  everyAttribute: 'Every attribute of the entity is present on every item, at its average size.',
  conditionIndependence: 'Clauses of a "when" condition are taken as independent: their shares multiply.',
  exists: 'attribute_exists holds for every item, since every attribute is taken to be present (attribute_not_exists for none).',
} as const;
