// How a phone number typed by a person is read, for `--search` and for `msgstat find`. The API knows one
// thing about numbers: `search` is a substring match on the recipient, which is digits only, country
// code included. So msgstat sends digits, and where the person asked for more than "contains" (one
// number exactly, a national number, "ends with"), it sends the digits that narrow the listing and
// keeps, client-side, only the recipients that match.
import { UsageError } from "./errors.js";

/**
 * What only formats a number: spaces (no-break and thin ones too), dashes, dots, brackets and slashes. The
 * dashes include those a word processor writes for "-": hyphens, figure, en and em dashes, and the minus sign.
 */
const FORMATTING = /[\s\-\u2010-\u2015\u2212.()/]/g;
/** E.164: a full international number is at most 15 digits; fewer than 7 is no phone number anywhere. */
export const INTERNATIONAL_DIGITS = { min: 7, max: 15 } as const;
/**
 * A trunk 0 is read as such before at least this many digits (07700 900123 has ten). Shorter, as in "0779",
 * the 0 is a digit like any other: a part of a number someone remembers.
 */
export const MIN_NATIONAL_DIGITS = 8;

/** How a recipient is kept once the listing came: client-side, after the server's substring match. */
export type RecipientTest = { kind: "equals"; digits: string } | { kind: "endsWith"; digits: string };

export interface RecipientQuery {
  /** The digits sent as `search` (the server's substring match narrows the listing to a superset). */
  search: string;
  /** Kept client-side; none when the server's "contains" is the whole match. */
  test?: RecipientTest;
  /** How the number was read, for a person ("+447700900123", "ending in 7700900123", "containing 11"). */
  described: string;
}

/**
 * The text with its formatting dropped, and the international prefix read: a leading `+`, or a `00` before a full
 * number (`0044 7700 900123`); in that form a `(0)`, as in `+44 (0)20 7946 0958`, is the trunk prefix
 * written to help national callers, and is dropped too.
 */
function readTyped(text: string): { digits: string; international: boolean; suffix: boolean } {
  let rest = text.trim();
  const suffix = rest.startsWith("*");
  if (suffix) rest = rest.slice(1);
  const plus = /^[\s(]*\+/.test(rest);
  // A "+" inside brackets, as in "(+44) 7700", is leading once the brackets are gone.
  let digits = rest.replace(/^([\s(]*)\+/, "$1");
  const marked = plus || /^[\s(]*00/.test(digits);
  if (marked) digits = digits.replace(/\(0\)/g, "");
  digits = digits.replace(FORMATTING, "");
  if (!plus && /^00[1-9]/.test(digits) && digits.length - 2 >= INTERNATIONAL_DIGITS.min) {
    return { digits: digits.slice(2), international: true, suffix };
  }
  return { digits, international: plus, suffix };
}

/** A national form: a single trunk 0 before enough digits to be a whole national number. */
function nationalSignificant(digits: string): string | undefined {
  return /^0[1-9][0-9]*$/.test(digits) && digits.length - 1 >= MIN_NATIONAL_DIGITS ? digits.slice(1) : undefined;
}

/**
 * `--search`: a part of a number, contained anywhere in the recipient (as the API matches), with these
 * readings of what a person types:
 * - formatting dropped, and a leading `+` (`+1 (555)` searches 1555);
 * - `00` before a full number is the international prefix, as `+` (`0044 5494 080779` searches 445494080779);
 * - a national form (`07700 900123`: a trunk 0 and at least MIN_NATIONAL_DIGITS more) keeps the numbers
 *   that end in its national digits (7700900123), whatever their country code;
 * - a leading `*` means "ends with": `*0779` keeps the numbers ending in 0779.
 * Anything else left once formatting is dropped is sent as it is (the caller decides whether to refuse it).
 */
export function searchQuery(text: string): RecipientQuery {
  const { digits, international, suffix } = readTyped(text);
  if (suffix) return { search: digits, test: { kind: "endsWith", digits }, described: `ending in ${digits}` };
  const national = international ? undefined : nationalSignificant(digits);
  if (national !== undefined)
    return {
      search: national,
      test: { kind: "endsWith", digits: national },
      described: `ending in ${national} (the national number ${digits})`,
    };
  return { search: digits, described: `containing ${digits}` };
}

/**
 * `msgstat find <recipient>`: one customer's number, matched exactly.
 * - `+44 7700 900123`, `0044 7700 900123`, `447700900123` (without a country calling code): the full
 *   international number; only recipients equal to it (formatting aside) match, never one that merely
 *   contains or ends with its digits.
 * - `07700 900123` (a trunk 0): with a country calling code (`countryCode`, from --country-code or the
 *   profile), the full number 44 7700900123 exactly; without one, the numbers ending in 7700900123, in
 *   whatever country (`ambiguous` says so, in lines for a note on stderr).
 * - `*0779`: the numbers ending in 0779, when that is what was asked.
 * - `(720) 970-3582`, no +, 00 or trunk 0: with a country calling code, a national number of that country
 *   (bareNational); without one, the full international number, as the API writes recipients (and, when
 *   it was typed with formatting, `ambiguous` says so).
 * Throws a UsageError, with advice, for what cannot be one person's number.
 */
export function findQuery(text: string, countryCode?: string): RecipientQuery & { ambiguous?: string[] } {
  const { digits, international, suffix } = readTyped(text);
  const shown = JSON.stringify(text);
  if (digits === "" || /[^0-9]/.test(digits))
    throw new UsageError(
      `${shown} is not a phone number: find takes digits, with spaces, dashes, dots, brackets and a leading + ` +
        `or 00 as people write them`,
    ).withHint("For example: msgstat find '+44 7700 900123'");
  if (suffix) return { search: digits, test: { kind: "endsWith", digits }, described: `ending in ${digits}` };
  const national = international ? undefined : nationalSignificant(digits);
  if (national !== undefined) {
    if (countryCode !== undefined) return exactly(countryCode + national);
    return {
      search: national,
      test: { kind: "endsWith", digits: national },
      described: `ending in ${national}`,
      // Two short lines, each within 80 columns for a 15-digit number: notes on stderr are not wrapped.
      ambiguous: [
        `${digits}: no country code set; listing numbers ending in ${national}`,
        "For one country: --country-code 44 (UK), or msgstat config set country-code 44",
      ],
    };
  }
  if (!international && digits.startsWith("0"))
    throw new UsageError(`${shown} is too short for a national number (a trunk 0 and at least 8 digits)`).withHint(
      "Type the number in full, as +44 7700 900123; for a part of a number: msgstat messages <campaignId> " +
        "--search <digits>; for its last digits: msgstat find '*0779'",
    );
  if (!international && countryCode !== undefined) return bareNational(digits, countryCode, shown);
  if (digits.length < INTERNATIONAL_DIGITS.min || digits.length > INTERNATIONAL_DIGITS.max)
    throw new UsageError(
      `${shown} has ${digits.length} digits: a full international number has ${INTERNATIONAL_DIGITS.min} to ` +
        `${INTERNATIONAL_DIGITS.max}, country code included`,
    ).withHint("For the numbers that end in some digits: msgstat find '*0779'");
  // Digits alone are a recipient as the API writes one; typed with formatting but no + or 00, it may
  // as well be a national number, so stderr says how it was read.
  if (!international && text.trim() !== digits)
    return {
      ...exactly(digits),
      ambiguous: [
        `${text.trim()}: no + or 00 and no country code, so read as +${digits}`,
        "A national number? --country-code 1 (US), or msgstat config set country-code 1",
      ],
    };
  return exactly(digits);
}

/**
 * A number without +, 00 or a trunk 0, with a country calling code given: a national number of that
 * country, as people write one where there is no trunk prefix ((720) 970-3582 in the US), never the
 * international number its first digits would make of it (+7 209...). One that starts with the code
 * itself could be either, the international number typed without its + or a national one: refused, with
 * both spellings, unless only one of them has at most 15 digits.
 */
function bareNational(digits: string, countryCode: string, shown: string): RecipientQuery {
  const full = countryCode + digits;
  const withCode = digits.startsWith(countryCode) && digits.length >= INTERNATIONAL_DIGITS.min;
  if (full.length > INTERNATIONAL_DIGITS.max) {
    if (withCode && digits.length <= INTERNATIONAL_DIGITS.max) return exactly(digits);
    throw new UsageError(
      `${shown} has ${digits.length} digits: with country code ${countryCode}, more than the ` +
        `${INTERNATIONAL_DIGITS.max} of a full international number`,
    ).withHint("For the numbers that end in some digits: msgstat find '*0779'");
  }
  if (digits.length < MIN_NATIONAL_DIGITS)
    throw new UsageError(
      `${shown} is too short for a national number of country code ${countryCode} (at least ` +
        `${MIN_NATIONAL_DIGITS} digits)`,
    ).withHint(
      `Type the number in full, as +${countryCode} and its digits; for its last digits: msgstat find '*${digits}'`,
    );
  if (withCode)
    throw new UsageError(
      `${shown} could be +${digits} (typed without its +) or the national number ${digits} of country code ` +
        `${countryCode} (+${full})`,
    ).withHint(`Say which: msgstat find '+${digits}', or with the trunk 0: msgstat find 0${digits}`);
  return exactly(full);
}

function exactly(digits: string): RecipientQuery {
  return { search: digits, test: { kind: "equals", digits }, described: `+${digits}` };
}

/**
 * A recipient as sent, read as digits the same way as a typed number: the reference says digits only, but a
 * server that sends `+44 7700 900123` still means the same number.
 */
export function recipientDigits(recipient: string): string {
  const { digits } = readTyped(recipient);
  return digits;
}

/** Whether a message's recipient passes the client-side test (a message without one never does). */
export function recipientMatches(test: RecipientTest, recipient: string | undefined): boolean {
  if (recipient === undefined) return false;
  const digits = recipientDigits(recipient);
  return test.kind === "equals" ? digits === test.digits : digits.endsWith(test.digits);
}
