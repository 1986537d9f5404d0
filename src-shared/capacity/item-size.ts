/**
 * DynamoDB item sizes: DynamoDB JSON attribute values, their validation, and the byte counts every
 * read and write unit is computed from (docs/dynamodb-rules.md §1).
 *
 * An item's size is the sum over its top-level attributes of the attribute name's UTF-8 bytes plus
 * the value's bytes. Strings count UTF-8 bytes (not UTF-16 code units, which is where dynalite
 * differs), binaries their decoded bytes, numbers follow the exact base-100 rule dynalite implements
 * (docs/dynamodb-rules.md §1.2), lists and maps add 3 bytes plus 1 per element, sets add nothing.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html *
 * The DynamoDB JSON types and number/base64 encodings are in `item-size/values.ts`, the byte counts
 * in `item-size/sizes.ts`, parsing and the size limit in `item-size/parse.ts`; this file re-exports
 * their public API.
 */
export {
  attributeValueType,
  base64DecodedLength,
  parseDecimal,
  type AttributeValue,
  type AttributeValueType,
  type DecimalParts,
  type Item,
} from './item-size/values.ts';
export {
  DOCUMENT_ELEMENT_OVERHEAD_BYTES,
  DOCUMENT_OVERHEAD_BYTES,
  ITEMIZED_ATTRIBUTES,
  MAX_ITEM_BYTES,
  attributeValueBytes,
  itemSizeBytes,
  itemSizeFigure,
  numberValueBytes,
} from './item-size/sizes.ts';
export {
  MAX_NESTING_DEPTH,
  MAX_NUMBER_DIGITS,
  MAX_NUMBER_EXPONENT,
  MIN_NUMBER_EXPONENT,
  checkItemSize,
  parseDynamoDbItem,
  type ItemErrorCode,
} from './item-size/parse.ts';
