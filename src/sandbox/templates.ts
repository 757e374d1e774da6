// Message templates and the values that fill them. A template body is split once into literal
// text and placeholder names, so rendering a message is plain concatenation.
import type { DrawStream } from "./hash.js";

export interface TemplateSpec {
  key: string;
  language: string;
  body: string;
}

export interface PreparedTemplate extends TemplateSpec {
  /** Literal text at even positions, placeholder names at odd positions. */
  parts: readonly string[];
  placeholders: readonly string[];
}

export const TEMPLATES = {
  saleEnglish: {
    key: "sale-en",
    language: "english",
    body:
      "Hi {{first_name}}, our Spring Sale is on: {{discount}} off everything until {{end_date}}. Shop " +
      "now: {{link}}",
  },
  saleSpanish: {
    key: "sale-es",
    language: "spanish",
    body:
      "¡Hola {{first_name}}! Rebajas de primavera: {{discount}} de descuento hasta el {{end_date}}. " +
      "Compra aquí: {{link}}",
  },
  orderEnglish: {
    key: "order-en",
    language: "english",
    body: "{{first_name}}, your order {{order_id}} ships {{ship_date}}. Track it: {{link}}",
  },
  pointsSpanish: {
    key: "points-es",
    language: "spanish",
    body: "{{first_name}}, tienes {{points}} puntos. Tu código: {{code}}. Canjéalos antes del {{end_date}}.",
  },
  pointsEnglish: {
    key: "points-en",
    language: "english",
    body: "{{first_name}}, you have {{points}} points. Your code: {{code}}. Redeem before {{end_date}}.",
  },
  otpEnglish: {
    key: "otp-en",
    language: "english",
    body: "Your verification code is {{code}}. It expires in {{minutes}} minutes.",
  },
  otpHindi: {
    key: "otp-hi",
    language: "hindi",
    body: "आपका सत्यापन कोड {{code}} है। यह {{minutes}} मिनट में समाप्त हो जाएगा।",
  },
} satisfies Record<string, TemplateSpec>;

const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}/g;

export function prepareTemplate(spec: TemplateSpec): PreparedTemplate {
  const parts = spec.body.split(PLACEHOLDER);
  const placeholders = [...new Set(parts.filter((_, i) => i % 2 === 1))];
  return { ...spec, parts, placeholders };
}

export function renderTemplate(template: PreparedTemplate, values: Record<string, string>): string {
  let text = "";
  for (let i = 0; i < template.parts.length; i++) {
    const part = template.parts[i] ?? "";
    text += i % 2 === 0 ? part : (values[part] ?? "");
  }
  return text;
}

const FIRST_NAMES = [
  "Ana",
  "José",
  "Zoë",
  "Ngozi",
  "Priya",
  "Liam",
  "Chloé",
  "Mateo",
  "Aisha",
  "Kenji",
  "Seán",
  "O'Neil",
  "Fatima",
  "Björn",
  "Lucía",
  "Olu",
];
const END_DATES = ["30 April", "2 May", "15 May", "31 May"];
const SHIP_DAYS = ["today", "tomorrow", "on Monday", "on Friday"];

/** A plausible value for a placeholder; unknown names get a neutral token so every placeholder is filled. */
export function valueForPlaceholder(name: string, draw: DrawStream): string {
  switch (name) {
    case "first_name":
      return draw.pick(FIRST_NAMES);
    case "discount":
      return `${draw.pick([10, 15, 20, 25, 30, 40, 50])}%`;
    case "end_date":
      return draw.pick(END_DATES);
    case "link":
      return `https://sho.rt/${draw.next().toString(36)}`;
    case "order_id":
      return `ORD-${draw.digits(6)}`;
    case "ship_date":
      return draw.pick(SHIP_DAYS);
    case "points":
      return String(100 + draw.below(4900));
    case "code":
      return draw.digits(6);
    case "minutes":
      return String(draw.pick([5, 10, 15]));
    default:
      return draw.hex(6);
  }
}
