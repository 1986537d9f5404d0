/**
 * How large a design file may be. A design at every DynamoDB limit (GSIs, LSIs, attributes, access
 * patterns) is a few MB of JSON; the cap leaves room for long descriptions and many entities while
 * bounding what one file makes the host and the page hold (each holds a design a few times over:
 * its text, its parsed form, an undo history).
 */

/**
 * The largest design file Keyplan opens or writes: 64 MB (67,108,864 bytes) of UTF-8 JSON. A larger
 * file is refused when opened (`file.tooLarge`, before it is read), and a design whose file would be
 * larger is refused when saved, with nothing written.
 */
export const MAX_DESIGN_BYTES = 64 * 1024 * 1024;
