/**
 * What an attribute's name suggests it holds (`orderDate` → a date, `userId` → an id), shared by the
 * value model (`value-model.ts`: key widths, categorical pools) and the one value generator
 * (`sample/columns.ts`), so the two read names the same way.
 */
import type { Generator } from './schema.ts';

/** What a name can suggest: a generator kind, one of the name-only kinds below, or `plain` (nothing). */
export type NameKind =
  | Extract<Generator['kind'], 'email' | 'uuid' | 'id' | 'date' | 'timestamp' | 'name' | 'text'>
  | 'firstName' | 'lastName' | 'userName' | 'product' | 'status' | 'country' | 'city' | 'currency'
  | 'category' | 'phone' | 'sku' | 'url' | 'money' | 'quantity' | 'rating' | 'plain';

/**
 * Words of `name` in lower case: `orderDate` → ["order", "date"], `created_at` → ["created", "at"],
 * `HTMLParser` → ["html", "parser"]. Linear in the name's length: the acronym split looks ahead two
 * characters from each capital (a greedy `([A-Z]+)([A-Z][a-z])` rescans a long run of capitals from
 * each of its positions).
 */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

/** How many names `idInitialsOf` and `kindFromName` remember (they are asked about the same few names, very often). */
const MAX_CACHED = 1024;
/** By entity name, then attribute name (two lookups, no key string built per call). */
const initialsCache = new Map<string, Map<string, string>>();
let initialsCached = 0;
const kindCache = new Map<string, NameKind>();

/** The initials an id is written with: `userId` → `u`, `orderItemId` → `oi`, `id` → the entity's initial (`x` when none). */
export function idInitialsOf(name: string, entityName: string): string {
  let byName = initialsCache.get(entityName);
  const known = byName?.get(name);
  if (known !== undefined) return known;
  const words = wordsOf(name).filter((w) => w !== 'id');
  const source = words.length > 0 ? words : wordsOf(entityName);
  const initials = source.map((w) => w[0]).join('') || 'x';
  // Asked once per generated id (a simulation names thousands of keys): remembered, a bounded few.
  if (initialsCached >= MAX_CACHED) {
    initialsCache.clear();
    initialsCached = 0;
    byName = undefined;
  }
  if (!byName) initialsCache.set(entityName, (byName = new Map()));
  byName.set(name, initials);
  initialsCached += 1;
  return initials;
}

/** What an attribute's name suggests it holds, by its words (type aside); `plain` when nothing. */
export function kindFromName(name: string): NameKind {
  const known = kindCache.get(name);
  if (known !== undefined) return known;
  const kind = kindOfWords(wordsOf(name));
  if (kindCache.size >= MAX_CACHED) kindCache.clear();
  kindCache.set(name, kind);
  return kind;
}

function kindOfWords(words: string[]): NameKind {
  const last = words.at(-1) ?? '';
  const has = (...w: string[]): boolean => words.some((x) => w.includes(x));
  if (has('email', 'mail')) return 'email';
  if (has('uuid', 'guid')) return 'uuid';
  if (last === 'id' || last === 'ids') return 'id';
  if (last === 'date' || last === 'day' || has('birthday', 'dob')) return 'date';
  if (last === 'at' || last === 'time' || last === 'timestamp' || has('ttl', 'expires', 'expiry')) return 'timestamp';
  if (has('first', 'given') && has('name')) return 'firstName';
  if (has('last', 'family', 'surname')) return 'lastName';
  if (has('username', 'handle', 'login') || (has('user') && last === 'name')) return 'userName';
  if ((has('product', 'item') && last === 'name') || last === 'title') return 'product';
  if (last === 'name' || has('fullname')) return 'name';
  if (has('status', 'state')) return 'status';
  if (has('country')) return 'country';
  if (has('city')) return 'city';
  if (has('currency')) return 'currency';
  if (has('category', 'department')) return 'category';
  if (has('phone', 'mobile')) return 'phone';
  if (has('sku')) return 'sku';
  if (has('url', 'link', 'image', 'avatar')) return 'url';
  if (has('price', 'amount', 'total', 'cost', 'balance', 'subtotal')) return 'money';
  if (has('quantity', 'qty', 'count')) return 'quantity';
  if (has('rating', 'stars', 'score')) return 'rating';
  if (has('comment', 'description', 'body', 'text', 'note', 'notes', 'review', 'summary')) return 'text';
  return 'plain';
}

/** Words sample data draws names, products and categorical values from: one list each, for previews and bulk data alike. */
export const FIRST_NAMES = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elif', 'Femi', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kofi', 'Lena', 'Mateo', 'Nia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq'];
export const LAST_NAMES = ['Silva', 'Okafor', 'Martin', 'Patel', 'Yilmaz', 'Adeyemi', 'Kim', 'Tanaka', 'Costa', 'Berg', 'Novak', 'Haddad', 'Moreau', 'Singh', 'Lopez', 'Fischer', 'Ito', 'Walsh', 'Mensah', 'Larsen'];
export const PRODUCTS = ['Trail Running Shoes', 'Espresso Grinder', 'Wool Beanie', 'Desk Lamp', 'Water Bottle', 'Rain Jacket', 'Notebook Set', 'Yoga Mat', 'Camping Stove', 'Linen Shirt'];
export const CATEGORIES = ['Shoes', 'Kitchen', 'Accessories', 'Home', 'Outdoor', 'Books'];
export const STATUSES = ['PENDING', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
export const COUNTRIES = ['PT', 'US', 'DE', 'JP', 'BR', 'NG', 'IN', 'FR'];
export const CITIES = ['Lisbon', 'Seattle', 'Berlin', 'Osaka', 'Recife', 'Lagos', 'Pune', 'Lyon'];
export const CURRENCIES = ['EUR', 'USD', 'JPY', 'BRL'];

/**
 * The few values a categorical name takes when its attribute has no generator (`status`, `country`, …):
 * an even enum over these, for the planner's shares and for sample data alike.
 */
export const CATEGORICAL_POOLS: Partial<Record<NameKind, readonly string[]>> = {
  status: STATUSES,
  country: COUNTRIES,
  city: CITIES,
  currency: CURRENCIES,
  category: CATEGORIES,
};
