/**
 * The template a CloudFormation import reads: its parameters, mappings and resources, and the
 * intrinsic functions over them. `Ref` to a parameter gives its `Default`; `Fn::Sub`, `Fn::Join`,
 * `Fn::Select`, `Fn::Split` and `Fn::FindInMap` over such values are computed; `Fn::If` takes its first
 * branch. What only a deployment decides (pseudo parameters, `Fn::GetAtt`, `Fn::ImportValue` …) is
 * said with the reason. A `ResourceId` keeps a `Ref` to a table of the template as that table.
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
 */
import { describeValue, quote } from '../../model/index.ts';
import type { TemplateFormat } from './template-text.ts';

/** The resource types the import reads. */
export const TABLE_TYPE = 'AWS::DynamoDB::Table';
export const GLOBAL_TABLE_TYPE = 'AWS::DynamoDB::GlobalTable';
export const SCALABLE_TARGET_TYPE = 'AWS::ApplicationAutoScaling::ScalableTarget';
export const SCALING_POLICY_TYPE = 'AWS::ApplicationAutoScaling::ScalingPolicy';

/** How deep intrinsic functions may nest before a value is called unreadable (a guard against cycles through YAML aliases). */
const MAX_INTRINSIC_DEPTH = 32;

/** An object of the template. */
export type Json = Record<string, unknown>;

/** A plain object of the template (not a list, nor a Set or bytes a YAML tag may give). */
export function isRecord(v: unknown): v is Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `AWS::NoValue`: the property is left out. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');

/** What an intrinsic function gives when the template decides it, with how; or why it cannot be read. */
export type Evaluation = { ok: true; value: unknown; via: string[] } | { ok: false; what: string; why: string };

/** A part of a `ResourceId`: text, or a `Ref` to a table of the template. */
export type IdPart = string | { table: string };

/** A parameter of the template, as `Ref` reads it. */
export interface Parameter {
  hasDefault: boolean;
  default: unknown;
  isList: boolean;
}

/** Why each intrinsic function the template does not decide gives no value here. */
const UNDECIDED: Record<string, string> = {
  'Fn::GetAtt': 'it is an attribute of a resource, known only at deployment',
  'Fn::ImportValue': 'it is a value another stack exports, known only at deployment',
  'Fn::GetAZs': 'it is known only at deployment',
  'Fn::Cidr': 'it is known only at deployment',
  'Fn::Base64': 'it is encoded text, not a setting',
  'Fn::Transform': 'it is the output of a macro, known only at deployment',
  Condition: 'it is a condition, not a value',
  'Fn::Equals': 'it is a condition, not a value',
  'Fn::And': 'it is a condition, not a value',
  'Fn::Or': 'it is a condition, not a value',
  'Fn::Not': 'it is a condition, not a value',
};

/** The long name of an intrinsic function call (`{ "Fn::Sub": … }` → `Fn::Sub`), if `v` is one. */
export function intrinsicOf(v: unknown): { name: string; arg: unknown } | undefined {
  if (!isRecord(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 1) return undefined;
  const name = keys[0]!;
  if (name !== 'Ref' && name !== 'Condition' && !name.startsWith('Fn::')) return undefined;
  return { name, arg: v[name] };
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** The template's parameters, mappings and resources, and how to work out intrinsic functions over them. */
export class Template {
  constructor(
    readonly format: TemplateFormat,
    readonly parameters: ReadonlyMap<string, Parameter>,
    readonly mappings: Json,
    readonly resources: Json,
  ) {}

  /** `Fn::Sub` → `!Sub` in a YAML template; the long name in a JSON one. */
  fnName(long: string): string {
    if (this.format === 'json') return long;
    return `!${long.replace(/^Fn::/, '')}`;
  }

  /** An intrinsic function call as the template writes it, shortly: `!Ref TableName`, `!If [IsProd, …]`, `{"Ref": "TableName"}`. */
  show(v: unknown): string {
    const fn = intrinsicOf(v);
    if (!fn) return describeValue(v);
    const isJson = this.format === 'json';
    const brief = (a: unknown, depth: number): string => {
      if (typeof a === 'string') return !isJson && /^[A-Za-z0-9:._/-]+$/.test(a) && a.length <= 80 ? a : quote(a);
      if (typeof a === 'number' || typeof a === 'boolean') return String(a);
      if (Array.isArray(a) && depth === 0) return `[${a.slice(0, 3).map((x) => brief(x, 1)).join(', ')}${a.length > 3 ? ', …' : ''}]`;
      if (intrinsicOf(a) && depth === 0) return this.show(a);
      return '…';
    };
    const isDotted = fn.name === 'Fn::GetAtt' && !isJson && Array.isArray(fn.arg) && fn.arg.every((x) => typeof x === 'string');
    const arg = isDotted ? brief((fn.arg as string[]).join('.'), 0) : brief(fn.arg, 0);
    return isJson ? `{"${fn.name}": ${arg}}` : `${this.fnName(fn.name)} ${arg}`;
  }

  /** How a value of `Fn::If` was taken: its first branch, the condition being decided at deployment. */
  private firstBranch(conditionName: unknown): string {
    const condition = typeof conditionName === 'string' ? conditionName : '?';
    return `the first branch of ${this.fnName('Fn::If')} on condition ${quote(condition)}, which is decided at deployment`;
  }

  isTableResource(logicalId: string): boolean {
    const r = Object.hasOwn(this.resources, logicalId) ? this.resources[logicalId] : undefined;
    return isRecord(r) && (r.Type === TABLE_TYPE || r.Type === GLOBAL_TABLE_TYPE);
  }

  /** `Ref` to a name: a parameter's Default, `AWS::NoValue`, or why it is known only at deployment. */
  private ref(name: unknown, shown: string): Evaluation {
    if (typeof name !== 'string') return { ok: false, what: shown, why: 'its argument is not a name' };
    if (name === 'AWS::NoValue') return { ok: true, value: NO_VALUE, via: [] };
    if (name.startsWith('AWS::')) return { ok: false, what: shown, why: `${name} is a pseudo parameter, known only at deployment` };
    const parameter = this.parameters.get(name);
    if (parameter) {
      if (!parameter.hasDefault) return { ok: false, what: shown, why: `parameter ${quote(name)} has no Default` };
      const value = parameter.isList && typeof parameter.default === 'string' ? parameter.default.split(',').map((s) => s.trim()) : parameter.default;
      return { ok: true, value, via: [`the Default of parameter ${quote(name)}`] };
    }
    if (Object.hasOwn(this.resources, name)) return { ok: false, what: shown, why: `resource ${quote(name)} gets its name or id at deployment` };
    return { ok: false, what: shown, why: `${quote(name)} names no parameter or resource of the template` };
  }

  /** The pieces of a `Fn::Sub` string: text, and `${Name}` references (`${!Literal}` is text). */
  private subPieces(text: string): Array<{ text: string } | { name: string }> {
    const pieces: Array<{ text: string } | { name: string }> = [];
    let last = 0;
    for (const m of text.matchAll(/\$\{([^}]*)\}/g)) {
      const at = m.index ?? 0;
      if (at > last) pieces.push({ text: text.slice(last, at) });
      const inner = m[1] ?? '';
      pieces.push(inner.startsWith('!') ? { text: `\${${inner.slice(1)}}` } : { name: inner.trim() });
      last = at + m[0].length;
    }
    if (last < text.length) pieces.push({ text: text.slice(last) });
    return pieces;
  }

  private subArguments(arg: unknown): { text: string; vars: Json } | undefined {
    if (typeof arg === 'string') return { text: arg, vars: {} };
    if (Array.isArray(arg) && typeof arg[0] === 'string' && (arg.length === 1 || (arg.length === 2 && isRecord(arg[1])))) return { text: arg[0], vars: (arg[1] as Json | undefined) ?? {} };
    return undefined;
  }

  /** A `${Name}` of a `Fn::Sub`: one of its own variables, or a `Ref`; `${Resource.Attribute}` is `Fn::GetAtt`. */
  private subVariable(name: string, vars: Json, shown: string, depth: number): Evaluation {
    if (Object.hasOwn(vars, name)) return this.evaluate(vars[name], depth + 1);
    if (name.includes('.')) return { ok: false, what: shown, why: `\${${name}} is an attribute of a resource, known only at deployment` };
    const e = this.ref(name, shown);
    return e.ok ? e : { ok: false, what: shown, why: `\${${name}}: ${e.why}` };
  }

  /**
   * The value of `v` where the template decides it: itself when it is no intrinsic function call;
   * the computed value of `Ref` to a parameter, `Fn::Sub`, `Fn::Join`, `Fn::Select`, `Fn::Split`
   * and `Fn::FindInMap`; the first branch of `Fn::If`. Anything else is known only at deployment.
   */
  evaluate(v: unknown, depth = 0): Evaluation {
    const fn = intrinsicOf(v);
    if (!fn) return { ok: true, value: v, via: [] };
    const shown = this.show(v);
    if (depth > MAX_INTRINSIC_DEPTH) return { ok: false, what: shown, why: `intrinsic functions nest more than ${MAX_INTRINSIC_DEPTH} deep` };
    const failed = (why: string): Evaluation => ({ ok: false, what: shown, why });
    const scalarOf = (e: Evaluation): Evaluation => (e.ok && !isScalar(e.value) ? failed('a part of it is not text or a number') : e);
    switch (fn.name) {
      case 'Ref':
        return this.ref(fn.arg, shown);
      case 'Fn::If': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 3) return failed('Fn::If takes a condition and two values');
        const e = this.evaluate(fn.arg[1], depth + 1);
        if (!e.ok) return e;
        return { ok: true, value: e.value, via: [this.firstBranch(fn.arg[0]), ...e.via] };
      }
      case 'Fn::Sub': {
        const args = this.subArguments(fn.arg);
        if (!args) return failed('Fn::Sub takes a string, or a string and a map of variables');
        let out = '';
        const via: string[] = [];
        for (const piece of this.subPieces(args.text)) {
          if ('text' in piece) {
            out += piece.text;
            continue;
          }
          const e = scalarOf(this.subVariable(piece.name, args.vars, shown, depth));
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          out += String(e.value);
          via.push(...e.via);
        }
        return { ok: true, value: out, via };
      }
      case 'Fn::Join': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2 || typeof fn.arg[0] !== 'string') return failed('Fn::Join takes a delimiter and a list');
        const list = this.evaluate(fn.arg[1], depth + 1);
        if (!list.ok) return { ok: false, what: shown, why: list.why };
        if (!Array.isArray(list.value)) return failed('its second argument is not a list');
        const via = [...list.via];
        const parts: string[] = [];
        for (const item of list.value) {
          const e = scalarOf(this.evaluate(item, depth + 1));
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          if (e.value === NO_VALUE) continue;
          parts.push(String(e.value));
          via.push(...e.via);
        }
        return { ok: true, value: parts.join(fn.arg[0]), via };
      }
      case 'Fn::Select': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2) return failed('Fn::Select takes an index and a list');
        const index = this.evaluate(fn.arg[0], depth + 1);
        const list = this.evaluate(fn.arg[1], depth + 1);
        if (!index.ok) return { ok: false, what: shown, why: index.why };
        if (!list.ok) return { ok: false, what: shown, why: list.why };
        const n = typeof index.value === 'number' ? index.value : typeof index.value === 'string' && /^\d+$/.test(index.value) ? Number(index.value) : NaN;
        if (!Array.isArray(list.value) || !Number.isInteger(n) || n < 0 || n >= list.value.length) return failed('its index is not a position in its list');
        const e = this.evaluate(list.value[n], depth + 1);
        return e.ok ? { ok: true, value: e.value, via: [...index.via, ...list.via, ...e.via] } : e;
      }
      case 'Fn::Split': {
        if (!Array.isArray(fn.arg) || fn.arg.length !== 2 || typeof fn.arg[0] !== 'string' || fn.arg[0] === '') return failed('Fn::Split takes a delimiter and a string');
        const e = this.evaluate(fn.arg[1], depth + 1);
        if (!e.ok) return { ok: false, what: shown, why: e.why };
        if (typeof e.value !== 'string') return failed('its second argument is not text');
        return { ok: true, value: e.value.split(fn.arg[0]), via: e.via };
      }
      case 'Fn::FindInMap': {
        if (!Array.isArray(fn.arg) || fn.arg.length < 3) return failed('Fn::FindInMap takes a map name and two keys');
        const keys: string[] = [];
        const via: string[] = [];
        for (const k of fn.arg.slice(0, 3)) {
          const e = this.evaluate(k, depth + 1);
          if (!e.ok) return { ok: false, what: shown, why: e.why };
          if (!isScalar(e.value)) return failed('a key of it is not text');
          keys.push(String(e.value));
          via.push(...e.via);
        }
        const [map, top, second] = keys as [string, string, string];
        const level1 = Object.hasOwn(this.mappings, map) ? this.mappings[map] : undefined;
        const level2 = isRecord(level1) && Object.hasOwn(level1, top) ? level1[top] : undefined;
        if (isRecord(level2) && Object.hasOwn(level2, second)) return { ok: true, value: level2[second], via: [...via, `Mappings.${map}.${top}.${second}`] };
        const fallback = fn.arg[3];
        if (isRecord(fallback) && Object.hasOwn(fallback, 'DefaultValue')) {
          const e = this.evaluate(fallback.DefaultValue, depth + 1);
          return e.ok ? { ok: true, value: e.value, via: [...via, ...e.via, `the DefaultValue of ${shown}`] } : e;
        }
        return failed(`Mappings has no ${quote(`${map}.${top}.${second}`)}`);
      }
      default:
        return failed(Object.hasOwn(UNDECIDED, fn.name) ? UNDECIDED[fn.name]! : `${fn.name} is not an intrinsic function Keyplan reads`);
    }
  }

  /**
   * A `ResourceId` as parts, where a `Ref` to a table of the template (in `Ref`, `Fn::Sub` or
   * `Fn::Join`) stays a reference: a table's name is known only at deployment, but which table it
   * is, is known.
   */
  resourceIdParts(v: unknown, depth = 0): { ok: true; parts: IdPart[]; via: string[] } | { ok: false; what: string; why: string } {
    const fn = intrinsicOf(v);
    const shown = this.show(v);
    if (depth > MAX_INTRINSIC_DEPTH) return { ok: false, what: shown, why: `intrinsic functions nest more than ${MAX_INTRINSIC_DEPTH} deep` };
    if (fn?.name === 'Ref' && typeof fn.arg === 'string' && this.isTableResource(fn.arg)) return { ok: true, parts: [{ table: fn.arg }], via: [] };
    if (fn?.name === 'Fn::Sub') {
      const args = this.subArguments(fn.arg);
      if (args) {
        const parts: IdPart[] = [];
        const via: string[] = [];
        for (const piece of this.subPieces(args.text)) {
          if ('text' in piece) parts.push(piece.text);
          else if (Object.hasOwn(args.vars, piece.name)) {
            const inner = this.resourceIdParts(args.vars[piece.name], depth + 1);
            if (!inner.ok) return inner;
            parts.push(...inner.parts);
            via.push(...inner.via);
          } else if (this.isTableResource(piece.name)) parts.push({ table: piece.name });
          else {
            const e = this.subVariable(piece.name, {}, shown, depth);
            if (!e.ok || !isScalar(e.value)) return { ok: false, what: shown, why: e.ok ? 'a part of it is not text' : e.why };
            parts.push(String(e.value));
            via.push(...e.via);
          }
        }
        return { ok: true, parts, via };
      }
    }
    if (fn?.name === 'Fn::Join' && Array.isArray(fn.arg) && fn.arg.length === 2 && typeof fn.arg[0] === 'string') {
      const delimiter = fn.arg[0];
      const list = Array.isArray(fn.arg[1]) ? { ok: true as const, value: fn.arg[1] as unknown, via: [] as string[] } : this.evaluate(fn.arg[1], depth + 1);
      if (!list.ok) return { ok: false, what: shown, why: list.why };
      if (Array.isArray(list.value)) {
        const parts: IdPart[] = [];
        const via = [...list.via];
        for (const [k, item] of list.value.entries()) {
          if (k > 0) parts.push(delimiter);
          const inner = this.resourceIdParts(item, depth + 1);
          if (!inner.ok) return { ok: false, what: shown, why: inner.why };
          parts.push(...inner.parts);
          via.push(...inner.via);
        }
        return { ok: true, parts, via };
      }
    }
    if (fn?.name === 'Fn::If' && Array.isArray(fn.arg) && fn.arg.length === 3) {
      const inner = this.resourceIdParts(fn.arg[1], depth + 1);
      return inner.ok ? { ok: true, parts: inner.parts, via: [this.firstBranch(fn.arg[0]), ...inner.via] } : inner;
    }
    const e = this.evaluate(v, depth);
    if (!e.ok) return e;
    if (!isScalar(e.value)) return { ok: false, what: shown, why: 'it is not text' };
    return { ok: true, parts: [String(e.value)], via: e.via };
  }
}

/** The template's `Parameters`: whether each has a `Default`, and whether it is a list. */
export function readParameters(root: Json): Map<string, Parameter> {
  const out = new Map<string, Parameter>();
  const parameters = root.Parameters;
  if (!isRecord(parameters)) return out;
  for (const [name, p] of Object.entries(parameters)) {
    if (!isRecord(p)) continue;
    const type = typeof p.Type === 'string' ? p.Type : '';
    out.set(name, { hasDefault: Object.hasOwn(p, 'Default'), default: p.Default, isList: type === 'CommaDelimitedList' || type.startsWith('List<') });
  }
  return out;
}

