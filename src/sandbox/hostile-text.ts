// Legal but hostile strings that some messages carry in one value (and so in fullMessage): they
// break naive CSV writers, terminals and spreadsheets, which is exactly what clients must survive.
export const HOSTILE_VALUES: readonly string[] = [
  'Smith, "Junior"',
  "two\nlines",
  "windows\r\nline",
  "tab\tseparated",
  "Party 🎉 👨‍👩‍👧‍👦 🏳️‍🌈",
  "مرحبا بك",
  "שלום עולם",
  "invoice\u202Efdp.exe",
  '=HYPERLINK("http://x","y")',
  "+1-555",
  "-2+3",
  "@SUM(A1)",
  "\u001b[31mred\u001b[0m",
  "\u001b[2Jcleared",
  "\u001b]52;c;aGVsbG8=\u0007",
  "\u009b31mC1",
  "nul\u0000byte",
];

/** Share of messages that carry one hostile value. */
export const HOSTILE_SHARE = 0.05;
