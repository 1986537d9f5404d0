/**
 * Where a design path (`tables[0].entities[2].keys.PK.template`, as problems name places) sits in a
 * JSON text: a small scanner that records the character offsets of every key and value under the
 * same path notation `joinPath` writes. It reads text that `JSON.parse` accepted; on anything else it
 * records what it reached and stops.
 */
import { joinPath } from '../../src-shared/model/index.ts';

/** Character offsets (end exclusive) of one value in the text, and of its property name if it has one. */
export interface JsonLocation {
  valueStart: number;
  valueEnd: number;
  /** The first line of the value only, for objects and arrays (marking all of a big object is noise). */
  isContainer: boolean;
  keyStart?: number;
  keyEnd?: number;
}

export type JsonLocations = ReadonlyMap<string, JsonLocation>;

/** Every value's location in `text`, by path (`''` is the root). */
export function locateJsonValues(text: string): JsonLocations {
  const found = new Map<string, JsonLocation>();
  let i = 0;

  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i += 1;
  };

  const readString = (): string => {
    const start = i;
    i += 1; // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i += 1; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };

  const readValue = (path: string, key?: { start: number; end: number }): boolean => {
    skipSpace();
    const start = i;
    const ch = text[i];
    let isContainer = false;
    if (ch === '{') {
      isContainer = true;
      i += 1;
      skipSpace();
      if (text[i] === '}') i += 1;
      else {
        for (;;) {
          skipSpace();
          if (text[i] !== '"') return false;
          const keyStart = i;
          const name = readString();
          const keyEnd = i;
          skipSpace();
          if (text[i] !== ':') return false;
          i += 1;
          if (!readValue(joinPath(path, name), { start: keyStart, end: keyEnd })) return false;
          skipSpace();
          if (text[i] === ',') i += 1;
          else if (text[i] === '}') {
            i += 1;
            break;
          } else return false;
        }
      }
    } else if (ch === '[') {
      isContainer = true;
      i += 1;
      skipSpace();
      if (text[i] === ']') i += 1;
      else {
        for (let n = 0; ; n += 1) {
          if (!readValue(joinPath(path, n))) return false;
          skipSpace();
          if (text[i] === ',') i += 1;
          else if (text[i] === ']') {
            i += 1;
            break;
          } else return false;
        }
      }
    } else if (ch === '"') {
      readString();
    } else if (ch !== undefined && /[-0-9tfn]/.test(ch)) {
      while (i < text.length && /[-+.0-9eEtruefalsn]/.test(text[i]!)) i += 1;
    } else {
      return false;
    }
    const location: JsonLocation = { valueStart: start, valueEnd: i, isContainer };
    if (key) {
      location.keyStart = key.start;
      location.keyEnd = key.end;
    }
    found.set(path, location);
    return true;
  };

  try {
    readValue('');
  } catch {
    // An unterminated string in text JSON.parse refused: keep what was located before it.
  }
  return found;
}

/** The range to mark for a problem at `path`: the value itself, or its nearest ancestor when the value is missing. */
export function rangeOfPath(text: string, locations: JsonLocations, path: string): { start: number; end: number } {
  const exact = locations.get(path);
  if (exact) return markRange(text, exact);
  for (let cut = path.length - 1; cut > 0; cut -= 1) {
    if (path[cut] !== '.' && path[cut] !== '[') continue;
    const ancestor = locations.get(path.slice(0, cut));
    if (ancestor) return markRange(text, ancestor);
  }
  const root = locations.get('');
  return root ? { start: root.valueStart, end: root.valueStart + 1 } : { start: 0, end: Math.min(1, text.length) };
}

function markRange(text: string, location: JsonLocation): { start: number; end: number } {
  if (!location.isContainer) return { start: location.valueStart, end: location.valueEnd };
  if (location.keyStart !== undefined && location.keyEnd !== undefined) return { start: location.keyStart, end: location.keyEnd };
  const lineEnd = text.indexOf('\n', location.valueStart);
  return { start: location.valueStart, end: lineEnd === -1 || lineEnd > location.valueEnd ? location.valueEnd : lineEnd };
}
