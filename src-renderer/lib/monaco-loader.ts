/**
 * Loads Monaco on first use (the Raw JSON screen, the export dialog). Monaco is several MB, so it is
 * a separate chunk fetched only then: start-up stays fast.
 */
export type MonacoKit = typeof import('./monaco.ts');

let loading: Promise<MonacoKit> | undefined;
let loaded: MonacoKit | undefined;

/** Monaco if it was loaded already (nothing to clean up otherwise); never starts a load. */
export function loadedMonaco(): MonacoKit | undefined {
  return loaded;
}

export function loadMonaco(): Promise<MonacoKit> {
  loading ??= import('./monaco.ts').then((kit) => (loaded = kit)).catch((error: unknown) => {
    loading = undefined; // a failed load (e.g. a chunk missing after an update) may be retried
    throw error;
  });
  return loading;
}
