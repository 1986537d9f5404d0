import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { connectToHost } from './lib/api.ts';
import { openWorkspaceDb } from './lib/db.ts';
import { Workspace } from './state/workspace.svelte.ts';

const workspace = new Workspace(connectToHost(), openWorkspaceDb());
mount(App, { target: document.getElementById('app')!, props: { workspace } });
// Unsaved edits are written within a second anyway; this catches the last ones when the window goes.
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && workspace.flush());
window.addEventListener('pagehide', () => workspace.flush());
void workspace.init();
