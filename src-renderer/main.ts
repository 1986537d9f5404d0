import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { connectToHost } from './lib/api.ts';
import { openWorkspaceDb } from './lib/db.ts';
import { Workspace } from './state/workspace.svelte.ts';
import { Theme } from './state/theme.svelte.ts';

// The theme first: the page is drawn in the right colours from its first frame.
const theme = new Theme();
theme.start();
const workspace = new Workspace(connectToHost(), openWorkspaceDb());
mount(App, { target: document.getElementById('app')!, props: { workspace, theme } });
// Unsaved edits are written within a frame anyway; this journals the last ones synchronously when the window goes.
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && workspace.flush());
window.addEventListener('pagehide', () => workspace.flush());
// Back from another program (an editor, git): a file changed meanwhile is noticed at once.
window.addEventListener('focus', () => void workspace.disk.check());
void workspace.init();
