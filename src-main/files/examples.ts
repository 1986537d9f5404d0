/** The example designs shipped in `examples/*.keyplan.json`, offered as new, unsaved designs. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import type { ExampleInfo } from '../../src-shared/ipc/index.ts';
import type { Design } from '../../src-shared/model/index.ts';
import { readDesignFile } from './design-file.ts';
import { DESIGN_SUFFIX } from './locator.ts';

const EXAMPLE_ID = /^[a-z0-9][a-z0-9_-]*$/i;

export interface ExampleLibrary {
  /** Every example that parses, sorted by id; a broken one is reported through `onBroken` and left out. */
  list(): Promise<ExampleInfo[]>;
  /** Errors: `ipc.badInput` for a malformed id, `file.notFound` for an unknown one, the file errors otherwise. */
  open(id: string): Promise<Design>;
}

export function createExampleLibrary(dir: string, onBroken: (id: string, error: unknown) => void = () => {}): ExampleLibrary {
  async function ids(): Promise<string[]> {
    const names = await readdir(dir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    return names
      .filter((n) => n.endsWith(DESIGN_SUFFIX))
      .map((n) => n.slice(0, -DESIGN_SUFFIX.length))
      .filter((id) => EXAMPLE_ID.test(id))
      .sort();
  }

  async function open(id: string): Promise<Design> {
    if (!EXAMPLE_ID.test(id)) {
      throw new AppError({ code: 'ipc.badInput', path: 'id', message: `Example id "${id}" is malformed: expected letters, digits, "-" or "_".` });
    }
    const known = await ids();
    if (!known.includes(id)) {
      throw new AppError({ code: 'file.notFound', path: 'id', message: `There is no example "${id}". Available: ${known.join(', ') || 'none'}.` });
    }
    return (await readDesignFile(join(dir, `${id}${DESIGN_SUFFIX}`), `example ${id}`)).design;
  }

  return {
    async list() {
      const found: ExampleInfo[] = [];
      for (const id of await ids()) {
        try {
          const design = await open(id);
          found.push({ id, name: design.name, description: design.description ?? '' });
        } catch (error) {
          onBroken(id, error);
        }
      }
      return found;
    },
    open,
  };
}
