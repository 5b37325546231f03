// Engine action notation (rummykit.engine.actions): matching a selection of rack pieces
// against the legal list, and describing an action in the player's language.

import { t } from "./i18n.js";
import { bareFace, formationTokens, sameMultiset, subMultiset } from "./pieces.js";

const TARGET_RE = /^(attach|exchange)\s+(.*?)\s*->\s*m?(\d+)$/i;
const RECLAIM_RE = /^reclaim\s+(\S+)\s*<-\s*m?(\d+)$/i;

/** Split notation into {verb, pieces (bare faces), tokens, target, arg}. */
export function parseAction(text) {
  const line = String(text).trim().replace(/\s+/g, " ");
  const [verbRaw, ...restParts] = line.split(" ");
  const verb = verbRaw.toLowerCase();
  const rest = restParts.join(" ");
  const out = { text: line, verb, tokens: [], pieces: [], target: null, arg: rest || null };
  if (verb === "meld") {
    out.tokens = formationTokens(rest);
  } else if (verb === "attach" || verb === "exchange") {
    const m = TARGET_RE.exec(line);
    if (m) {
      out.tokens = m[2].replace(/^\[|\]$/g, "").trim().split(/\s+/).filter(Boolean);
      out.target = Number(m[3]);
    }
  } else if (verb === "reclaim") {
    const m = RECLAIM_RE.exec(line);
    if (m) { out.tokens = [m[1]]; out.target = Number(m[2]); }
  } else if (["discard", "close", "accept", "out", "remi", "layoff"].includes(verb) && rest) {
    out.tokens = [rest];
  } else if (verb === "swap") {
    const [piece, seat] = rest.split(" ");
    out.tokens = piece === "?" ? [] : [piece];
    out.arg = seat;
  } else if (verb === "take") {
    out.target = Number(rest);
  }
  out.pieces = out.tokens.map(bareFace);
  return out;
}

/** Legal actions of ``verbs`` whose rack pieces are exactly ``selection`` (faces), on ``target``. */
export function matching(legal, verbs, selection, target = null) {
  return legal.map(parseAction).filter((a) => verbs.includes(a.verb)
    && (target === null || a.target === target)
    && sameMultiset(a.pieces, selection));
}

/** Faces that could join ``selection`` on the way to some legal meld. */
export function meldContinuations(legal, selection) {
  const fits = new Set();
  for (const a of legal.map(parseAction)) {
    if (a.verb !== "meld" || !subMultiset(selection, a.pieces)) continue;
    const rest = [...a.pieces];
    for (const s of selection) rest.splice(rest.indexOf(s), 1);
    for (const f of rest) fits.add(f);
  }
  return fits;
}

/** Every rack face that some legal action moves off the rack. */
export function playableFaces(legal) {
  const faces = new Set();
  for (const a of legal.map(parseAction)) {
    if (a.verb === "reclaim") continue;
    for (const f of a.pieces) faces.add(f);
  }
  return faces;
}

/** An action in words; ``seatName(i)`` names seat i (0-based). */
export function describe(text, seatName) {
  const a = parseAction(text);
  const pieces = a.tokens.join(" ");
  switch (a.verb) {
    case "draw": return t("act.draw");
    case "take": return t("act.take", { index: a.target });
    case "meld": return t("act.meld", { pieces });
    case "attach": return t("act.attach", { piece: pieces, target: `m${a.target}` });
    case "exchange": return t("act.exchange", { pieces, target: `m${a.target}` });
    case "reclaim": return t("act.reclaim", { piece: pieces, target: `m${a.target}` });
    case "discard": return t("act.discard", { piece: pieces });
    case "close": return t("act.close", { piece: pieces });
    case "remi":
      if (!a.arg) return t("act.remi");
      return a.arg === "?" ? t("act.remi_hidden") : t("act.remi_close", { piece: pieces });
    case "out": return a.arg ? t("act.out_discard", { piece: pieces }) : t("act.out");
    case "three": return t("act.three");
    case "board": return t("act.board");
    case "reset": return t("act.reset");
    case "atu": return t("act.atu");
    case "doubles": return t("act.doubles", { category: doublesCategory(a.arg) });
    case "swap": {
      const seat = seatName(Number(String(a.arg).replace(/^P/i, "")) - 1);
      return a.tokens.length ? t("act.swap", { piece: pieces, seat }) : t("act.swap_hidden", { seat });
    }
    case "accept": return a.arg === "?" ? t("act.accept_hidden") : t("act.accept", { piece: pieces });
    case "decline": return t("act.decline");
    case "reshuffle": return t("act.reshuffle");
    case "ready": return t("act.ready");
    case "pass": return t("act.pass");
    case "knock": return t("act.knock");
    case "layoff": return t("act.layoff", { piece: pieces });
    case "next": return t("act.next");
    default: return text;
  }
}

function doublesCategory(name) {
  switch (name) {
    case "small": return t("doubles.small");
    case "big": return t("doubles.big");
    case "key": return t("doubles.key");
    default: return name;
  }
}
