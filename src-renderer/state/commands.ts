/**
 * Every command of the window, in one list: the command palette shows it, the keyboard handler finds
 * shortcuts in it, and the toolbar takes its shortcut hints from it. The File and Edit commands are the
 * ones the application menu sends (`MenuCommand`, same accelerators as src-main/menu.ts): they go
 * through `Workspace.run`, which drops a key press that reaches both the page and the menu.
 */
import { getContext, setContext } from 'svelte';
import type { MenuCommand } from '../../src-shared/ipc/index.ts';
import { SCREENS } from './screens.ts';
import type { Theme } from './theme.svelte.ts';
import type { Workspace } from './workspace.svelte.ts';

/** A key with Ctrl (Windows, Linux) or Cmd (macOS). */
export interface Shortcut {
  /** `KeyboardEvent.key`, lower case. */
  key: string;
  shift?: boolean;
}

export type CommandGroup = 'File' | 'Edit' | 'Design' | 'Go to' | 'Open designs' | 'Examples' | 'Recent files' | 'View';

/** A value the palette asks for before it runs the command (a checkpoint's name). */
export interface CommandInput {
  label: string;
  placeholder?: string;
}

export interface Command {
  /** Stable id, e.g. `file.save`, `screen.costs`, `design.activate:<id>`. */
  id: string;
  title: string;
  group: CommandGroup;
  /** The first is shown as the hint; all of them run the command. */
  shortcuts?: Shortcut[];
  /** More words the palette matches (not shown). */
  keywords?: string;
  /** When set, the palette asks for this value first and passes it to `run`. */
  input?: CommandInput;
  /** Whether the command can run now; the palette lists only those that can. */
  isEnabled(): boolean;
  run(source: CommandSource, value?: string): void | Promise<void>;
}

export type CommandSource = 'keyboard' | 'palette';

export interface CommandContext {
  workspace: Workspace;
  theme: Theme;
  openPalette(): void;
}

/** The palette's own shortcut. */
export const PALETTE_SHORTCUT: Shortcut = { key: 'k' };

const always = () => true;

/** Every command that applies now (screens and open designs included), in the palette's order. */
export function listCommands(ctx: CommandContext): Command[] {
  const { workspace, theme } = ctx;
  const doc = () => workspace.active;
  const editable = () => doc() !== undefined && !doc()!.readOnly;
  const menu = (command: MenuCommand) => (source: CommandSource) => workspace.run(command, source === 'keyboard' ? 'keyboard' : 'button');

  const commands: Command[] = [
    { id: 'palette.open', title: 'Show all commands', group: 'View', shortcuts: [PALETTE_SHORTCUT], keywords: 'command palette', isEnabled: always, run: () => ctx.openPalette() },
    { id: 'file.new', title: 'New design', group: 'File', shortcuts: [{ key: 'n' }], isEnabled: always, run: menu('new') },
    { id: 'file.open', title: 'Open a design file…', group: 'File', shortcuts: [{ key: 'o' }], isEnabled: always, run: menu('open') },
    { id: 'file.save', title: 'Save', group: 'File', shortcuts: [{ key: 's' }], isEnabled: () => editable() && !workspace.view.busy, run: menu('save') },
    { id: 'file.saveAs', title: 'Save as…', group: 'File', shortcuts: [{ key: 's', shift: true }], isEnabled: () => doc() !== undefined && !workspace.view.busy, run: menu('saveAs') },
    { id: 'file.import', title: 'Import a design or a NoSQL Workbench model…', group: 'File', shortcuts: [{ key: 'i' }], isEnabled: always, run: menu('import') },
    {
      id: 'file.export',
      title: 'Export…',
      group: 'File',
      shortcuts: [{ key: 'e' }],
      keywords: 'cloudformation terraform cdk aws cli markdown design sheet',
      isEnabled: () => doc() !== undefined,
      run: menu('export'),
    },
    { id: 'file.close', title: 'Close design', group: 'File', isEnabled: () => doc() !== undefined, run: () => void workspace.run('close') },
    { id: 'file.takeOver', title: 'Take over editing here', group: 'File', keywords: 'read-only window', isEnabled: () => doc()?.readOnly === true, run: () => workspace.handover.takeOver(doc()!) },
    {
      id: 'file.reload',
      title: 'Reload from disk',
      group: 'File',
      keywords: 'changed revert',
      isEnabled: () => editable() && doc()!.diskChange?.version != null,
      run: () => workspace.files.reloadFromDisk(doc()!),
    },
    { id: 'edit.undo', title: 'Undo', group: 'Edit', shortcuts: [{ key: 'z' }], isEnabled: () => editable() && doc()!.canUndo, run: menu('undo') },
    {
      id: 'edit.redo',
      title: 'Redo',
      group: 'Edit',
      shortcuts: [{ key: 'z', shift: true }, { key: 'y' }],
      isEnabled: () => editable() && doc()!.canRedo,
      run: menu('redo'),
    },
    {
      id: 'design.checkpoint',
      title: 'Keep a checkpoint…',
      group: 'Design',
      keywords: 'revision snapshot version',
      input: { label: 'Checkpoint name', placeholder: 'e.g. Before the GSI change' },
      isEnabled: () => doc() !== undefined,
      run: (_source, name) => workspace.versions.checkpoint(name ?? ''),
    },
    {
      id: 'design.duplicate',
      title: 'Duplicate as an alternative',
      group: 'Design',
      keywords: 'copy compare variant',
      isEnabled: () => doc() !== undefined,
      run: () => workspace.versions.duplicateAsAlternative(),
    },
    ...SCREENS.filter((s) => s.isBuilt).map(
      (screen): Command => ({
        id: `screen.${screen.id}`,
        title: `Go to ${screen.label}`,
        group: 'Go to',
        keywords: 'screen show',
        isEnabled: () => doc() !== undefined,
        run: () => workspace.view.show(screen.id),
      }),
    ),
    { id: 'screen.start', title: 'Go to the start screen', group: 'Go to', keywords: 'home examples recent', isEnabled: () => doc() !== undefined, run: () => void (workspace.activeId = undefined) },
    ...workspace.documents.map(
      (d): Command => ({
        id: `design.activate:${d.id}`,
        title: `Switch to ${d.title}`,
        group: 'Open designs',
        keywords: d.design.name,
        isEnabled: () => d.id !== workspace.activeId,
        run: () => workspace.activate(d.id),
      }),
    ),
    ...workspace.files.examples.map(
      (example): Command => ({
        id: `example.open:${example.id}`,
        title: `Open the example ${example.name}`,
        group: 'Examples',
        isEnabled: always,
        run: () => workspace.files.openExample(example.id),
      }),
    ),
    ...workspace.files.recent.map(
      (file): Command => ({
        id: `recent.open:${file.ref}`,
        title: `Open ${file.name}`,
        group: 'Recent files',
        keywords: 'recent',
        isEnabled: always,
        run: () => workspace.files.openRef(file.ref),
      }),
    ),
    { id: 'view.toggleDark', title: 'Toggle dark mode', group: 'View', keywords: 'theme colour color light night', isEnabled: always, run: () => theme.toggle() },
    { id: 'view.theme.system', title: 'Theme: follow the system', group: 'View', keywords: 'colour color dark light', isEnabled: () => theme.choice !== 'system', run: () => theme.choose('system') },
    { id: 'view.theme.light', title: 'Theme: light', group: 'View', keywords: 'colour color', isEnabled: () => theme.choice !== 'light', run: () => theme.choose('light') },
    { id: 'view.theme.dark', title: 'Theme: dark', group: 'View', keywords: 'colour color night', isEnabled: () => theme.choice !== 'dark', run: () => theme.choose('dark') },
  ];
  return commands;
}

const matches = (shortcut: Shortcut, event: KeyboardEvent) => event.key.toLowerCase() === shortcut.key && (shortcut.shift ?? false) === event.shiftKey;

/** The command a key press asks for (Ctrl on Windows and Linux, Cmd on macOS), whether or not it can run now. */
export function commandForKey(commands: readonly Command[], event: KeyboardEvent): Command | undefined {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return undefined;
  return commands.find((c) => c.shortcuts?.some((s) => matches(s, event)));
}

/** Whether this is a Mac (⌘ and ⇧ in shortcut hints, Cmd instead of Ctrl). */
export const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the platform writes it: `Ctrl+Shift+S`, or `⇧⌘S` on a Mac. */
export function shortcutLabel(shortcut: Shortcut, mac = isMac()): string {
  const key = shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key;
  return mac ? `${shortcut.shift ? '⇧' : ''}⌘${key}` : `Ctrl+${shortcut.shift ? 'Shift+' : ''}${key}`;
}

/** `title (shortcut)` for a button's tooltip, from the command's first shortcut. */
export function titleWithShortcut(commands: readonly Command[], id: string, title: string): string {
  const shortcut = commands.find((c) => c.id === id)?.shortcuts?.[0];
  return shortcut ? `${title} (${shortcutLabel(shortcut)})` : title;
}

/** What components reach through the context: the commands as they are now, and the palette. */
export interface CommandCenter {
  readonly list: readonly Command[];
  openPalette(): void;
}

const KEY = Symbol('commands');
export const setCommandCenter = (center: CommandCenter): CommandCenter => setContext(KEY, center);
export const getCommandCenter = (): CommandCenter => getContext<CommandCenter>(KEY);
