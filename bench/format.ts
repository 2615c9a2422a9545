/**
 * How `npm run bench` prints: narrow tables (at most {@link MAX_WIDTH}
 * columns) of rounded figures with their units, and one progress line on
 * stderr that rewrites itself while a long run goes on.
 */

/** The widest line a table may print. */
export const MAX_WIDTH = 120;

/** A figure's name without its unit suffix, and the unit the suffix names. */
export function figureUnit(key: string): { label: string; unit: string } {
  const suffixes: ReadonlyArray<[string, string]> = [
    ['_mb_s', 'MB/s'],
    ['_ms', 'ms'],
    ['_mb', 'MB'],
    ['_bytes', 'bytes'],
  ];
  for (const [suffix, unit] of suffixes) {
    if (key.endsWith(suffix)) return { label: key.slice(0, -suffix.length).replaceAll('_', ' '), unit };
  }
  return { label: key.replaceAll('_', ' '), unit: '' };
}

/**
 * A figure for a table: three significant digits at most below 100, none after the point above,
 * thousands grouped, and its unit; bytes as KB or MB.
 *
 * @param value - the figure; `null` or a missing one prints as a dash.
 * @param unit - its unit, from {@link figureUnit}.
 */
export function formatFigure(value: unknown, unit = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  if (unit === 'bytes') return value >= 1024 ** 2 ? `${formatFigure(value / 1024 ** 2)} MB` : `${formatFigure(value / 1024)} KB`;
  const magnitude = Math.abs(value);
  const places = Number.isInteger(value) || magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: places, maximumFractionDigits: places });
  return unit === '' ? text : `${text} ${unit}`;
}

/**
 * Lays out rows under a header: the first column left-aligned, the others right-aligned, two spaces
 * apart; cells of the first column are cut with `…` when the table would be wider than {@link MAX_WIDTH}.
 *
 * @param header - the column titles.
 * @param rows - the cells, as printed.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const others = widths.slice(1).reduce((sum, width) => sum + width + 2, 0);
  widths[0] = Math.max(8, Math.min(widths[0] ?? 0, MAX_WIDTH - others));
  const cut = (cell: string, width: number): string => (cell.length > width ? `${cell.slice(0, width - 1)}…` : cell);
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => (column === 0 ? cut(cell, widths[0] ?? 0).padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(header.map((_, column) => '─'.repeat(widths[column] ?? 0))), ...rows.map(line)].join('\n');
}

/**
 * One figure a line, with its unit: for an object of figures (the store's, the load's).
 *
 * @param title - the first column's title.
 * @param figures - figure names (with a unit suffix) and values.
 */
export function figuresTable(title: string, figures: object): string {
  return table(
    [title, 'value'],
    Object.entries(figures).map(([key, value]) => {
      const { label, unit } = figureUnit(key);
      return [label, formatFigure(value, unit)];
    }),
  );
}

/**
 * Figures of several sizes or runtimes side by side: one line per figure, one column per size.
 *
 * @param title - the first column's title.
 * @param columns - each column's figures, by the column's title.
 */
export function sideBySideTable(title: string, columns: Record<string, object | undefined>): string {
  const names = Object.keys(columns);
  const keys = [...new Set(names.flatMap((name) => Object.keys(columns[name] ?? {})))];
  return table(
    [title, ...names],
    keys.map((key) => {
      const { label, unit } = figureUnit(key);
      return [label, ...names.map((name) => formatFigure((columns[name] as Record<string, unknown> | undefined)?.[key], unit))];
    }),
  );
}

/** Milliseconds from one of tinybench's nanosecond cells (`"52571514.99 ± 2.30%"`). */
function nanosecondCell(cell: unknown): number | null {
  const value = typeof cell === 'string' ? Number.parseFloat(cell) : typeof cell === 'number' ? cell : Number.NaN;
  return Number.isFinite(value) ? value / 1e6 : null;
}

/**
 * tinybench's rows (`bench.table()`) as a narrow table: the task, its runs, median and mean in ms,
 * and the mean's relative margin of error.
 *
 * @param title - the first column's title.
 * @param rows - tinybench's table rows.
 */
export function tasksTable(title: string, rows: readonly Record<string, unknown>[]): string {
  return table(
    [title, 'runs', 'median', 'mean', '± mean'],
    rows.map((row) => {
      const mean = row['Latency avg (ns)'];
      const margin = typeof mean === 'string' ? /±\s*([\d.]+)%/.exec(mean)?.[1] : undefined;
      return [
        String(row['Task name'] ?? ''),
        formatFigure(row['Samples']),
        formatFigure(nanosecondCell(row['Latency med (ns)']), 'ms'),
        formatFigure(nanosecondCell(mean), 'ms'),
        margin === undefined ? '–' : `${formatFigure(Number(margin))} %`,
      ];
    }),
  );
}

/** Seconds as `42 s` or `3 min 05 s`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** What the bench prints through: results on stdout, and one progress line on stderr. */
export interface BenchOutput {
  /** Starts the next step of the run: the progress line names it and counts its time. */
  step(text: string): void;
  /** Prints a block of results on stdout, with a blank line after it. */
  print(text: string): void;
  /** Removes the progress line. */
  done(): void;
}

/**
 * The bench's output. The progress line (`[3/9] measuring 10MB … 1 min 12 s`) is rewritten in
 * place every second while stderr is a terminal, and cleared before results are printed; when
 * stderr is not a terminal, there is none, so logs and redirected output hold only results.
 *
 * @param totalSteps - how many steps the run has, for the counter.
 * @param stderr - where the progress line goes.
 */
export function benchOutput(totalSteps: number, stderr: NodeJS.WriteStream = process.stderr): BenchOutput {
  const started = performance.now();
  let current = '';
  let index = 0;
  let timer: NodeJS.Timeout | null = null;
  const live = stderr.isTTY === true;
  const draw = (): void => {
    if (!live || current === '') return;
    const text = `[${index}/${totalSteps}] ${current} ${formatElapsed(performance.now() - started)}`;
    stderr.write(`\r\x1b[K${text.slice(0, (stderr.columns || MAX_WIDTH) - 1)}`);
  };
  const clear = (): void => {
    if (live && current !== '') stderr.write('\r\x1b[K');
  };
  return {
    step(text) {
      index = Math.min(index + 1, totalSteps);
      current = `${text} …`;
      draw();
      if (live && timer === null) {
        timer = setInterval(draw, 1000);
        timer.unref();
      }
    },
    print(text) {
      clear();
      process.stdout.write(`${text}\n\n`);
      draw();
    },
    done() {
      clear();
      current = '';
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}
