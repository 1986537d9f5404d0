import { describe, expect, it } from 'vitest';
import { commandForKey, shortcutLabel, type Command } from './commands.ts';

const command = (id: string, shortcuts: Command['shortcuts']): Command => ({ id, title: id, group: 'File', shortcuts, isEnabled: () => true, run: () => {} });
const commands = [command('save', [{ key: 's' }]), command('saveAs', [{ key: 's', shift: true }]), command('redo', [{ key: 'z', shift: true }, { key: 'y' }])];
const press = (key: string, init: KeyboardEventInit = {}) => commandForKey(commands, new KeyboardEvent('keydown', { key, ...init }));

describe('shortcuts from the command list', () => {
  it('need Ctrl or Cmd, and tell Shift apart', () => {
    expect(press('s')).toBeUndefined();
    expect(press('s', { ctrlKey: true })?.id).toBe('save');
    expect(press('S', { metaKey: true, shiftKey: true })?.id).toBe('saveAs');
    expect(press('s', { ctrlKey: true, altKey: true })).toBeUndefined();
  });

  it('run a command from any of its shortcuts', () => {
    expect(press('y', { ctrlKey: true })?.id).toBe('redo');
    expect(press('Z', { ctrlKey: true, shiftKey: true })?.id).toBe('redo');
  });

  it('are written the way each platform writes them', () => {
    expect(shortcutLabel({ key: 's', shift: true }, false)).toBe('Ctrl+Shift+S');
    expect(shortcutLabel({ key: 's', shift: true }, true)).toBe('⇧⌘S');
    expect(shortcutLabel({ key: 'k' }, false)).toBe('Ctrl+K');
  });
});
