/**
 * The colour theme: follow the system (`prefers-color-scheme`), or always light, or always dark. The
 * choice is kept in this browser's localStorage (per installation, like window size; it is not part of
 * any design). The resolved theme is written to `<html data-theme="light|dark">`, which `app.css`
 * turns into colours; `color-scheme` lets the browser draw scrollbars and form controls to match.
 */
import { getContext, setContext } from 'svelte';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_CHOICES: ReadonlyArray<{ id: ThemeChoice; label: string }> = [
  { id: 'system', label: 'System' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
];

const STORAGE_KEY = 'keyplan.theme';

/** Where the theme reads and writes (the page's localStorage, matchMedia and <html> by default; tests pass fakes). */
export interface ThemeEnvironment {
  load(): string | null;
  save(choice: ThemeChoice): void;
  /** Whether the system prefers dark now, and a way to hear when that changes (returns the unsubscribe). */
  systemPrefersDark(): boolean;
  onSystemChange(listener: () => void): () => void;
  apply(theme: ResolvedTheme): void;
}

export const isThemeChoice = (value: unknown): value is ThemeChoice => value === 'system' || value === 'light' || value === 'dark';

function pageEnvironment(): ThemeEnvironment {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  return {
    load: () => {
      try {
        return localStorage.getItem(STORAGE_KEY);
      } catch {
        return null; // storage blocked: the system's choice it is
      }
    },
    save: (choice) => {
      try {
        localStorage.setItem(STORAGE_KEY, choice);
      } catch {
        // storage blocked: the choice lasts until the page closes
      }
    },
    systemPrefersDark: () => query.matches,
    onSystemChange: (listener) => {
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    apply: (theme) => {
      document.documentElement.dataset.theme = theme;
      document.documentElement.style.colorScheme = theme;
    },
  };
}

export class Theme {
  choice = $state<ThemeChoice>('system');
  /** What the system asks for now (followed live while `choice` is `system`). */
  systemPrefersDark = $state(false);

  readonly #env: ThemeEnvironment;
  #stopListening: (() => void) | undefined;

  constructor(env: ThemeEnvironment = pageEnvironment()) {
    this.#env = env;
    const stored = env.load();
    if (isThemeChoice(stored)) this.choice = stored;
    this.systemPrefersDark = env.systemPrefersDark();
  }

  /** The theme shown: the choice, or the system's when the choice is to follow it. */
  get resolved(): ResolvedTheme {
    if (this.choice === 'system') return this.systemPrefersDark ? 'dark' : 'light';
    return this.choice;
  }

  /** Applies the theme now and follows the system from here on. Call once, at start. */
  start(): void {
    this.#env.apply(this.resolved);
    this.#stopListening ??= this.#env.onSystemChange(() => {
      this.systemPrefersDark = this.#env.systemPrefersDark();
      this.#env.apply(this.resolved);
    });
  }

  choose(choice: ThemeChoice): void {
    this.choice = choice;
    this.#env.save(choice);
    this.#env.apply(this.resolved);
  }

  /** Light when dark is shown, dark when light is shown (the palette's "Toggle dark mode"). */
  toggle(): void {
    this.choose(this.resolved === 'dark' ? 'light' : 'dark');
  }

  stop(): void {
    this.#stopListening?.();
    this.#stopListening = undefined;
  }
}

const KEY = Symbol('theme');
export const setTheme = (theme: Theme): Theme => setContext(KEY, theme);
export const getTheme = (): Theme => getContext<Theme>(KEY);
