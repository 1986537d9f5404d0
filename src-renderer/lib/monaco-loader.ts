/**
 * Loads Monaco on first use (the Raw JSON screen, the export dialog). Monaco is several MB, so it is
 * a separate chunk fetched only then: start-up stays fast.
 */
export type MonacoKit = typeof import('./monaco.ts');

let loading: Promise<MonacoKit> | undefined;

export function loadMonaco(): Promise<MonacoKit> {
  loading ??= import('./monaco.ts').catch((error: unknown) => {
    loading = undefined; // a failed load (e.g. a chunk missing after an update) may be retried
    throw error;
  });
  return loading;
}
