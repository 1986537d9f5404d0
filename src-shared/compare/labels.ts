/**
 * Short labels for the sides of a comparison: a letter per side (A, B, C…) and a name of the same
 * kind on every side (every file name, or else every design name), so a reviewer reads "B" in a
 * column and "B: orders.keyplan.json" in the header instead of full names in every row.
 */

/** What is known of one side, to name it. */
export interface SideNaming {
  designName: string;
  /** The name of the file the side comes from (no folder), when it has one. */
  fileName?: string | undefined;
  /** For a revision: what made it (`saved`, `on disk`, `checkpoint “Before”`…) and when (ISO 8601). */
  revision?: { event: string; createdAt: string } | undefined;
  /** The open design whose revision is also compared: labelled `current`. */
  isCurrent?: boolean | undefined;
}

/** A, B, … Z, then S27, S28… (a comparison of more than 26 designs is unlikely, but stays readable). */
export function sideLetter(side: number): string {
  return side < 26 ? String.fromCharCode(65 + side) : `S${side + 1}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `14:03` today (`14:03:27` with seconds), else `2026-11-29 14:03`; in the local time zone. */
export function clockText(createdAt: string, now: Date, withSeconds = false): string {
  const d = new Date(createdAt);
  if (Number.isNaN(d.getTime())) return createdAt;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${withSeconds ? `:${pad(d.getSeconds())}` : ''}`;
  return d.toDateString() === now.toDateString() ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/**
 * The short label of every side, without its letter: the file name on every side when every side
 * has one, else the design name on every side (never a mix: a reader would not know which is
 * which). A revision adds what made it and when (`shop.keyplan.json · saved 14:03`), to the second
 * when two labels would otherwise read the same; the open design a revision is compared with adds
 * `current`.
 */
export function shortSideLabels(sides: readonly SideNaming[], now: Date = new Date()): string[] {
  const useFiles = sides.length > 0 && sides.every((s) => s.fileName !== undefined && s.fileName !== '');
  const base = sides.map((s) => (useFiles ? s.fileName! : s.designName.trim() || 'Untitled design'));
  const labelsWith = (withSeconds: boolean) =>
    sides.map((s, i) => {
      if (s.revision) return `${base[i]} · ${s.revision.event} ${clockText(s.revision.createdAt, now, withSeconds)}`;
      return s.isCurrent ? `${base[i]} · current` : base[i]!;
    });
  const labels = labelsWith(false);
  const isAmbiguous = labels.some((l, i) => sides[i]!.revision !== undefined && labels.some((m, j) => j !== i && m === l));
  return isAmbiguous ? labelsWith(true) : labels;
}
