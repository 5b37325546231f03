// Pieces as the engine writes them: tiles R1..K13 and J, cards AS..KC, 10H and JK;
// a wild piece in a formation may carry what it stands for, as in J(R7).

export const TILE_COLOURS = ["R", "Y", "B", "K"];
export const CARD_SUITS = ["S", "H", "D", "C"];
const CARD_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// The colour-blind setting marks each tile colour with its own shape too
// (red triangle, yellow circle, blue square, black diamond).
export const TILE_SHAPES = { R: "\u25B2", Y: "\u25CF", B: "\u25A0", K: "\u25C6" };
const TILE_RE = /^([RYBK])(\d{1,2})$/;
const CARD_RE = /^(A|[2-9]|10|J|Q|K)([SHDC])$/;

/** Parse one piece token; returns null for text that is not a piece. */
export function parseFace(token) {
  const text = String(token).trim().toUpperCase();
  const decl = /^([^()\s]+)\(([^()\s]+)\)$/.exec(text);
  if (decl) {
    const face = parseFace(decl[1]);
    if (face) face.declared = parseFace(decl[2]);
    return face;
  }
  if (text === "J") return { text, material: "tiles", joker: true, rank: 0, suit: -1, declared: null };
  if (text === "JK") return { text, material: "cards", joker: true, rank: 0, suit: -1, declared: null };
  let m = TILE_RE.exec(text);
  if (m) {
    const rank = Number(m[2]);
    if (rank < 1 || rank > 13) return null;
    return { text, material: "tiles", joker: false, rank, suit: TILE_COLOURS.indexOf(m[1]), declared: null };
  }
  m = CARD_RE.exec(text);
  if (m) {
    return {
      text, material: "cards", joker: false, rank: CARD_RANKS.indexOf(m[1]) + 1,
      suit: CARD_SUITS.indexOf(m[2]), declared: null,
    };
  }
  return null;
}

/** The bare face of a token: "J(R7)" -> "J". */
export function bareFace(token) {
  return String(token).replace(/\(.*\)$/, "");
}

/** The piece tokens of a formation's notation "[R5 J(R6) R7]". */
export function formationTokens(notation) {
  return String(notation).replace(/^\[|\]$/g, "").trim().split(/\s+/).filter(Boolean);
}

/** Sort keys: jokers last in both orders. */
export function colourKey(face) {
  return face.joker ? [9, 99] : [face.suit, face.rank];
}
export function numberKey(face) {
  return face.joker ? [99, 9] : [face.rank, face.suit];
}
export function compareBy(keyOf) {
  return (a, b) => {
    const ka = keyOf(parseFace(a));
    const kb = keyOf(parseFace(b));
    return ka[0] - kb[0] || ka[1] - kb[1];
  };
}

/** Whether the multiset ``small`` fits inside the multiset ``big`` (arrays of strings). */
export function subMultiset(small, big) {
  const counts = new Map();
  for (const x of big) counts.set(x, (counts.get(x) || 0) + 1);
  for (const x of small) {
    const n = counts.get(x) || 0;
    if (n === 0) return false;
    counts.set(x, n - 1);
  }
  return true;
}

export function sameMultiset(a, b) {
  return a.length === b.length && subMultiset(a, b);
}

/** A DOM element showing one piece face up; ``token`` may carry a declaration. */
export function pieceElement(token, extraClass = "") {
  const face = parseFace(token);
  const el = document.createElement("span");
  el.className = `piece ${extraClass}`.trim();
  el.dataset.face = bareFace(token);
  if (!face) {
    el.textContent = token;
    return el;
  }
  el.classList.add(face.material === "tiles" ? "tile" : "card");
  const rank = document.createElement("span");
  rank.className = "rank";
  const suit = document.createElement("span");
  suit.className = "suit";
  if (face.joker) {
    el.classList.add("joker");
    rank.textContent = face.material === "tiles" ? "\u263A" : "\u2605";
    suit.textContent = "J";
  } else if (face.material === "tiles") {
    el.classList.add(`c-${TILE_COLOURS[face.suit]}`);
    rank.textContent = String(face.rank);
    const shape = document.createElement("span");
    shape.className = "shape";
    shape.textContent = TILE_SHAPES[TILE_COLOURS[face.suit]];
    shape.setAttribute("aria-hidden", "true");
    el.append(shape);
  } else {
    const s = CARD_SUITS[face.suit];
    el.classList.add(`s-${s}`);
    rank.textContent = CARD_RANKS[face.rank - 1];
    suit.textContent = SUIT_SYMBOL[s];
  }
  el.append(rank, suit);
  if (face.declared) {
    const d = document.createElement("span");
    d.className = "declared";
    d.textContent = face.declared.text;
    el.append(d);
    el.dataset.declared = face.declared.text;
  }
  el.title = face.declared ? `${face.text}(${face.declared.text})` : face.text;
  return el;
}

/** A face-down piece (another seat's rack, the stock). */
export function backElement(material) {
  const el = document.createElement("span");
  el.className = `piece back ${material === "cards" ? "card" : "tile"}`;
  return el;
}
