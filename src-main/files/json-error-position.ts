/**
 * Where JSON text first goes wrong. `JSON.parse` in Node 20 often names no position ("Unexpected
 * token '}', ..."name": }" is not valid JSON"), so this small scanner finds it, to report a line and
 * column the user can go to. It runs only after `JSON.parse` has failed.
 */

/** The offset of the first syntax error in `text`, or `undefined` if the text is valid JSON. */
export function findJsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const fail = (): never => {
    throw new JsonSyntaxAt(i);
  };
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const readString = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c < ' ') fail();
      if (c !== '\\') {
        i++;
        continue;
      }
      const escaped = text[i + 1];
      if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
      else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i += 2;
      else {
        i++;
        fail();
      }
    }
    fail();
  };
  const readSequence = (close: '}' | ']', readItem: () => void) => {
    i++; // opening bracket
    skipSpace();
    if (text[i] === close) return void i++;
    for (;;) {
      readItem();
      skipSpace();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const readValue = (): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      return readSequence('}', () => {
        skipSpace();
        if (text[i] !== '"') fail();
        readString();
        skipSpace();
        if (text[i] !== ':') fail();
        i++;
        readValue();
      });
    }
    if (c === '[') return readSequence(']', readValue);
    if (c === '"') return readString();
    number.lastIndex = i;
    const match = number.exec(text);
    if (match) return void (i += match[0].length);
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, i)) return void (i += word.length);
    fail();
  };

  try {
    readValue();
    skipSpace();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    // A RangeError (nesting deeper than the stack) leaves the position unknown.
    return error instanceof JsonSyntaxAt ? error.offset : undefined;
  }
}

/** Line and column, both from 1, of an offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

class JsonSyntaxAt {
  constructor(readonly offset: number) {}
}
