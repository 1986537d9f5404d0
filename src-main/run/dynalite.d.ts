/** Types for dynalite 4 (it ships none): the factory returns a Node HTTP server speaking the DynamoDB API. */
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** Milliseconds a new table stays CREATING (default 500). */
    createTableMs?: number;
    /** Milliseconds a deleted table stays DELETING (default 500). */
    deleteTableMs?: number;
    /** Milliseconds an updated table stays UPDATING (default 500). */
    updateTableMs?: number;
    /** Largest item in KB (default 400). */
    maxItemSizeKb?: number;
    /** LevelDB directory; in memory when absent. */
    path?: string;
    verbose?: boolean;
    debug?: boolean;
  }

  export default function dynalite(options?: DynaliteOptions): Server;
}
