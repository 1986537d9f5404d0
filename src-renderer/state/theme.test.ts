import { describe, expect, it } from 'vitest';
import { Theme, type ResolvedTheme, type ThemeEnvironment } from './theme.svelte.ts';

function fakeEnvironment(stored: string | null, systemDark: boolean) {
  const state = { stored, systemDark, applied: [] as ResolvedTheme[], listeners: new Set<() => void>() };
  const env: ThemeEnvironment = {
    load: () => state.stored,
    save: (choice) => (state.stored = choice),
    systemPrefersDark: () => state.systemDark,
    onSystemChange: (listener) => {
      state.listeners.add(listener);
      return () => state.listeners.delete(listener);
    },
    apply: (theme) => state.applied.push(theme),
  };
  const systemTurns = (dark: boolean) => {
    state.systemDark = dark;
    for (const listener of state.listeners) listener();
  };
  return { state, env, systemTurns };
}

describe('the colour theme', () => {
  it('follows the system by default, live', () => {
    const { state, env, systemTurns } = fakeEnvironment(null, false);
    const theme = new Theme(env);
    theme.start();
    expect(theme.choice).toBe('system');
    expect(state.applied.at(-1)).toBe('light');
    systemTurns(true);
    expect(theme.resolved).toBe('dark');
    expect(state.applied.at(-1)).toBe('dark');
    theme.stop();
    expect(state.listeners.size).toBe(0);
  });

  it('keeps a chosen theme whatever the system says, and remembers it', () => {
    const { state, env, systemTurns } = fakeEnvironment(null, true);
    const theme = new Theme(env);
    theme.start();
    theme.choose('light');
    systemTurns(true);
    expect(state.applied.at(-1)).toBe('light');
    expect(state.stored).toBe('light');
    expect(new Theme(env).choice).toBe('light');
  });

  it('toggles between light and dark from what is shown, and ignores a stored value it does not know', () => {
    const { env } = fakeEnvironment('sepia', true);
    const theme = new Theme(env);
    expect(theme.choice).toBe('system');
    theme.toggle();
    expect(theme.choice).toBe('light');
    theme.toggle();
    expect(theme.choice).toBe('dark');
  });
});
