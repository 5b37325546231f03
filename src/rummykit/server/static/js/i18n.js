// Message catalogs: /static/i18n/<lang>.json, flat "area.name" keys with {param} slots.
// The language comes from a saved choice, else the browser's languages, else English.

export const LANGUAGES = ["en", "ro", "de", "hr", "bg", "pl"];
const STORE = "rummykit.lang";
// Close relatives read the nearest catalog: Moldovan -> Romanian, Bosnian/Serbian/
// Montenegrin (Latin script) -> Croatian, Macedonian -> Bulgarian.
const ALIASES = { mo: "ro", bs: "hr", sr: "hr", sh: "hr", cnr: "hr", mk: "bg" };

let lang = "en";
let catalog = {};
let fallback = {};
const listeners = [];

export function pickLanguage() {
  const params = new URLSearchParams(location.search);
  const wanted = [params.get("lang"), localStorage.getItem(STORE), ...(navigator.languages || []),
    navigator.language];
  for (const item of wanted) {
    if (!item) continue;
    const base = item.toLowerCase().split(/[-_]/)[0];
    const code = ALIASES[base] || base;
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

async function load(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`catalog ${code}: HTTP ${response.status}`);
  return response.json();
}

export async function setLanguage(code, remember = false) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await load("en");
  catalog = code === "en" ? fallback : await load(code);
  lang = code;
  if (remember) localStorage.setItem(STORE, code);
  document.documentElement.lang = code;
  applyTranslations(document);
  for (const fn of listeners) fn(code);
}

export function currentLanguage() {
  return lang;
}

export function onLanguageChange(fn) {
  listeners.push(fn);
}

/** The message for ``key`` with ``{name}`` slots filled from ``params``. */
export function t(key, params = {}) {
  let text = catalog[key] ?? fallback[key];
  if (text === undefined) {
    console.warn(`missing message ${key}`);
    text = key;
  }
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Text that comes from the engine or server in English (an illegal move's reason, a
 *  hint written out): as it is on an English page; elsewhere only what every language
 *  reads the same, its rule references (RULES §9.6, A-50), so no English reaches a
 *  Romanian or German screen. */
export function localText(message) {
  if (!message) return "";
  const text = String(message);
  if (lang === "en") return text;
  const refs = text.match(/§\s*\d+(?:\.\d+)*(?:\([a-z0-9]+\))?|\bA-\d+/g);
  return refs ? `RULES ${[...new Set(refs)].join(", ")}` : "";
}

/** Whether a catalog has ``key`` (for open families such as option names). */
export function has(key) {
  return key in catalog || key in fallback;
}

/** Fill every element carrying data-i18n (text), data-i18n-title or data-i18n-placeholder. */
export function applyTranslations(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}

/** A <select> of the six languages, each named in its own language. */
export function languagePicker(select) {
  const names = { en: "English", ro: "Română", de: "Deutsch", hr: "Hrvatski", bg: "Български", pl: "Polski" };
  select.replaceChildren(...LANGUAGES.map((code) => new Option(names[code], code)));
  select.value = lang;
  select.addEventListener("change", () => setLanguage(select.value, true));
  onLanguageChange((code) => { select.value = code; });
}
