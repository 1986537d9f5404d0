/**
 * The import dialog's state: the file or pasted text being read, what it reads as, and accepting it.
 * Nothing in the workspace changes until `accept`, which opens the design as a new, unsaved document.
 */
import type { Problem, Design } from '../../src-shared/model/index.ts';
import { decodeImportText } from '../../src-shared/formats/index.ts';
import { describeBytes } from '../../src-shared/formats/index.ts';
import { MAX_IMPORT_BYTES, readFileTexts, readImport, type ImportReading } from './read-import.ts';
import { formatBytesBrief, formatBytesIn } from '../../src-shared/numbers/index.ts';

export class ImportFlow {
  /** The pasted text (the paste area's value). */
  pasted = $state('');
  reading = $state.raw<ImportReading | undefined>();
  isReading = $state(false);

  readonly #open: (design: Design, source: string) => void;
  #generation = 0;

  /** `open`: what accepting does (the workspace adds the design as a new document). */
  constructor(open: (design: Design, source: string) => void) {
    this.#open = open;
  }

  /** Whether the current reading can be opened. */
  get canAccept(): boolean {
    return this.reading?.design !== undefined;
  }

  /** Starts over: no text, no reading. */
  reset(): void {
    this.#generation += 1;
    this.pasted = '';
    this.reading = undefined;
    this.isReading = false;
  }

  /**
   * Reads files the user picked or dropped (the browser's File API: no path crosses to the host).
   * One file is the design's source; with a describe-table output, the other files may be its
   * companions (describe-time-to-live and describe-continuous-backups outputs).
   */
  async readFiles(files: readonly File[]): Promise<void> {
    const generation = ++this.#generation;
    const source = files.map((f) => f.name).join(', ');
    const tooLarge = files.find((f) => f.size > MAX_IMPORT_BYTES);
    if (tooLarge) {
      // Refused from the file's size, before it is read, as the CLI refuses it.
      const found = `${tooLarge.size} bytes`;
      const expected = `at most ${describeBytes(MAX_IMPORT_BYTES)} (the most Keyplan imports)`;
      this.reading = { source, notes: [], problems: [{ code: 'import.tooLarge', path: '', message: `${tooLarge.name} is too large to import: ${found}; expected ${expected}.`, found, expected }] };
      return;
    }
    this.isReading = true;
    const texts: string[] = [];
    const problems: Problem[] = [];
    for (const file of files) {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await file.arrayBuffer());
      } catch (error) {
        problems.push({ code: 'file.io', path: '', message: `${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}.` });
        continue;
      }
      // `File.text()` would turn bytes that are not UTF-8 into U+FFFD silently: name the offset instead.
      const text = decodeImportText(bytes, file.name);
      if (text.ok) texts.push(text.value);
      else problems.push(...text.errors);
    }
    if (generation !== this.#generation) return; // another file or paste came in meanwhile
    this.isReading = false;
    this.pasted = '';
    if (problems.length > 0) {
      this.reading = { source, notes: [], problems };
      return;
    }
    this.reading = readFileTexts(files.map((f) => f.name), texts);
  }

  /** Reads one file the user picked or dropped. */
  readFile(file: File): Promise<void> {
    return this.readFiles([file]);
  }

  /** Reads the paste area's text. */
  readPasted(): void {
    this.#generation += 1;
    this.isReading = false;
    this.reading = readImport(this.pasted, 'Pasted text');
  }

  /** Opens the read design as a new, unsaved document. Does nothing when there is none. */
  accept(): boolean {
    const design = this.reading?.design;
    if (!design) return false;
    this.#open(design, this.reading!.source);
    this.reset();
    return true;
  }
}
