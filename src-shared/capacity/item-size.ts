/**
 * DynamoDB item sizes: DynamoDB JSON attribute values, their validation, and the byte counts every
 * read and write unit is computed from (docs/dynamodb-rules.md §1).
 *
 * More on its rules: docs/modules.md, "src-shared/capacity/item-size.ts".
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
