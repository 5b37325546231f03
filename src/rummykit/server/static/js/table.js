// The browser table: one WebSocket to /ws/{code}, state frames rendered from the seat's
// view, actions sent in engine notation.  No build step: a plain ES module.

import { api, forgetSeat, newActionId, rememberName, rememberSeat, seatAt, playerName } from "./api.js";
import { describe, matching, meldContinuations, parseAction, playableFaces } from "./actions.js";
import {
  applyTranslations, currentLanguage, has, languagePicker, localText, onLanguageChange, pickLanguage,
  setLanguage, t,
} from "./i18n.js";
import { backElement, colourKey, compareBy, formationTokens, numberKey, pieceElement } from "./pieces.js";
import { qrImage } from "./qr.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const spectateOnly = new URLSearchParams(location.search).has("spectate");
// A finished game stepped through event by event (/api/tables/{code}/replay/{step}).
const replayMode = new URLSearchParams(location.search).has("replay");

/** Everything the page knows; exposed as window.rummykitTable for tests and debugging. */
const S = {
  code,
  seat: null,
  token: null,
  table: null,
  view: null,
  legal: [],
  stateId: null,
  eventId: 0,
  last: null,
  deadline: null,
  hints: [],
  order: [],
  selected: new Set(),
  variants: null,
  connected: false,
  ws: null,
  retry: 0,
  frames: 0,
  replay: replayMode,
  step: 0,
  events: 0,
  views: null,
  // What the page showed last, to mark what changed (the last move, new formations).
  seen: { history: 0, table: new Map(), column: 0 },
  lastMove: null,
  joinOffered: false,
  // Seconds before a stand-in bot plays a seat whose player lost the connection.
  grace: null,
  awaySince: {},
  checkAway: false,
};
window.rummykitTable = S;

// ------------------------------------------------------------------ helpers

function tf(family, value, params = {}) {
  const key = `${family}.${value}`;
  return has(key) ? t(key, params) : String(value);
}

function seatName(i) {
  const seat = S.table && S.table.seats && S.table.seats.find((s) => s.seat === i);
  // A bot's name is its level in the page's language, not the server's English name.
  let base = seat && seat.name ? seat.name : t("seat.default", { n: i + 1 });
  if (seat && seat.kind === "bot") base = t("seat.bot_label", { n: i + 1, bot: tf("bot", seat.bot || "greedy") });
  return i === S.seat && !S.replay ? t("seat.you_named", { name: base }) : base;
}

function el(tag, cls = "", text = null) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== null) node.textContent = text;
  return node;
}

function material() {
  const rack = (S.view && S.view.rack) || [];
  const any = rack[0] || (S.view && S.view.column[0]) || (S.view && S.view.indicator);
  return any && /[SHDC]$|^JK$/.test(any) ? "cards" : "tiles";
}

function myTurn() {
  return S.view && S.seat !== null && S.legal.length > 0;
}

function showMessage(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

// ------------------------------------------------------------------ rack order

function rackKey() {
  return `rummykit.rack.${S.code}.${S.seat}`;
}

/** Keep the player's arrangement for the pieces still held; new pieces go to the right. */
function reconcileRack(rack) {
  let saved = S.order;
  if (!saved.length) {
    try { saved = JSON.parse(localStorage.getItem(rackKey()) || "[]"); } catch { saved = []; }
  }
  const remaining = [...rack];
  const order = [];
  for (const f of saved) {
    const i = remaining.indexOf(f);
    if (i >= 0) { order.push(f); remaining.splice(i, 1); }
  }
  order.push(...remaining);
  const changed = order.length !== S.order.length || order.some((f, i) => f !== S.order[i]);
  S.order = order;
  if (changed) S.selected.clear();
  saveRack();
}

function saveRack() {
  if (S.seat !== null && !S.replay) localStorage.setItem(rackKey(), JSON.stringify(S.order));
}

function selectedFaces() {
  return [...S.selected].sort((a, b) => a - b).map((i) => S.order[i]);
}

function sortRack(keyOf) {
  const chosen = new Set(selectedFaces());
  S.order = [...S.order].sort(compareBy(keyOf));
  S.selected.clear();
  saveRack();
  if (chosen.size) render();
  else renderRack();
}

// ------------------------------------------------------------------ connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(S.code)}`);
  S.ws = ws;
  ws.addEventListener("open", () => {
    S.connected = true;
    S.retry = 0;
    // The token goes in the first frame, never in the URL (URLs end up in access logs).
    send({ type: "hello", token: S.token });
    $("away-banner").hidden = true;
    S.checkAway = true;
    if (S.eventId) send({ type: "resync", last_event_id: S.eventId });
    renderStatus();
  });
  ws.addEventListener("message", (event) => {
    let frame;
    try { frame = JSON.parse(event.data); } catch { return; }
    S.frames += 1;
    onFrame(frame);
  });
  ws.addEventListener("close", (event) => {
    S.connected = false;
    S.ws = null;
    renderStatus();
    if (S.seat !== null && S.table && S.table.status === "playing" && !S.replay) {
      // Told before it happens: away longer than the grace period, a bot plays the seat.
      const box = $("away-banner");
      box.textContent = S.grace ? t("away.reconnecting", { s: Math.round(S.grace) }) : t("status.offline");
      box.hidden = false;
    }
    if (event.code === 4404) {
      showMessage(t("table.not_found", { code: S.code }), "error");
      return;
    }
    if (event.code === 4401 && S.token) {
      // The token holds no seat here (any more): watch instead.
      forgetSeat(S.code);
      S.token = null;
      S.seat = null;
    }
    // Reconnect with a growing pause; the server resends from the last event we saw.
    S.retry = Math.min(S.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** S.retry);
  });
}

function send(frame) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showMessage(t("status.offline"), "error");
    return false;
  }
  S.ws.send(JSON.stringify({ v: 1, ...frame }));
  return true;
}

function sendAction(text, confirmed = false) {
  if (S.replay) return false;
  if (!confirmed) {
    const warning = penaltyWarning(text);
    if (warning) {
      askToConfirm(warning, text);
      return false;
    }
  }
  showMessage("");
  const id = newActionId();
  return send({ type: "action", action_id: id, state_id: S.stateId, action: text });
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      S.table = frame.table;
      S.seat = frame.seat ?? null;
      S.grace = frame.grace ?? S.grace;
      if (S.seat === null && S.token) {
        // The server did not accept our token: the seat is gone.
        forgetSeat(S.code);
        S.token = null;
      }
      render();
      break;
    case "state":
      S.view = frame.view;
      S.legal = frame.legal || [];
      S.stateId = frame.state_id;
      S.eventId = frame.event_id ?? S.eventId;
      S.last = frame.last || null;
      S.winners = frame.winners ?? null;
      S.hands = frame.hands ?? null;
      S.deadline = frame.deadline ?? null;
      if (frame.table) S.table = frame.table;
      if (frame.seats && S.table) S.table.seats = frame.seats;
      // Hints shown a moment ago follow the turn as it goes on (a laydown step, an
      // announcement): ask again rather than leave stale advice on screen.
      const hadHints = S.hints.length > 0;
      S.hints = [];
      if (S.seat !== null) reconcileRack(S.view.rack || []);
      trackChanges();
      noticeStandin();
      render();
      pulsePile();
      if (hadHints && myTurn()) send({ type: "hint" });
      break;
    case "table":
    case "seats":
      if (frame.table) S.table = frame.table;
      if (frame.seats && S.table) S.table.seats = frame.seats;
      render();
      break;
    case "error":
      showMessage(errorText(frame), "error");
      break;
    case "hint":
      S.hints = frame.hints || [];
      renderHints();
      break;
    case "chat":
      hearChat(frame.lines || []);
      break;
    default:
      break;
  }
}

function errorText(frame) {
  const head = frame.code ? tf("error", frame.code) : t("error.generic");
  const why = frame.explain;
  if (why) {
    // An illegal move, worded in the page's language: the refusal's own message when
    // it has one, else (English pages) the engine's reason, else one by its verb.
    let sentence;
    if (why.key && has(`illegal.${why.key}`)) sentence = tf("illegal", why.key, why.params || {});
    else if (currentLanguage() === "en" && frame.message) sentence = frame.message;
    else sentence = tf("illegal.verb", why.verb || "other");
    const rule = why.rule ? ` (${t("illegal.rule", { rule: why.rule })})` : "";
    return `${head}: ${sentence}${rule}`;
  }
  const detail = localText(frame.message);
  return detail && detail !== head ? `${head}: ${detail}` : head;
}

// ------------------------------------------------------------------ rendering

function render() {
  renderStatus();
  renderHeader();
  renderWaiting();
  renderInvite();
  offerSeat();
  renderChat();
  if (!S.view) return;
  renderSeats();
  renderLastMove();
  renderCenter();
  renderFormations();
  renderRack();
  renderControls();
  renderLog();
  renderResults();
  renderRules();
  renderHints();
}

function renderStatus() {
  const status = $("status");
  if (S.replay) {
    status.textContent = t("replay.mode");
    status.className = "status replay";
    return;
  }
  status.textContent = S.connected ? t("status.online") : t("status.offline");
  status.className = S.connected ? "status online" : "status offline";
}

function inviteUrl() {
  return `${location.origin}/t/${encodeURIComponent(S.code)}`;
}

function renderHeader() {
  $("code").textContent = S.code;
  const variant = S.table ? S.table.variant : S.view && S.view.variant;
  $("variant").textContent = variant ? tf("variant", variant) : "";
  if (S.replay) $("who").textContent = "";
  else $("who").textContent = S.seat === null ? t("table.spectating") : t("table.you_are", { seat: S.seat + 1 });
  $("sit").hidden = S.replay || S.seat !== null || !S.table || !freeSeats().length;
  $("leave").hidden = S.replay || S.seat === null;
  document.body.classList.toggle("spectator", S.seat === null);
  document.body.classList.toggle("dealt", Boolean(S.view));
  if (!S.view) return;
  const v = S.view;
  let turn;
  if (v.phase === "match_end") turn = t("turn.match_over");
  else if (v.phase === "deal_end") turn = t("turn.deal_over");
  else if (myTurn()) turn = t("turn.yours");
  else turn = t("turn.of", { name: seatName(v.to_move) });
  $("turn").textContent = `${tf("phase", v.phase)} · ${t("table.deal", { n: v.deal_number + 1 })} · ${turn}`;
  $("turn").classList.toggle("mine", myTurn());
}

/** Before the first deal: who sits where, and who is still awaited. */
function renderWaiting() {
  const box = $("waiting");
  box.hidden = Boolean(S.view) || !S.table;
  if (box.hidden) return;
  const list = $("waiting-seats");
  list.replaceChildren();
  for (const s of S.table.seats || []) {
    let who = s.name;
    if (s.kind === "open") who = t("waiting.awaited");
    else if (s.kind === "bot") who = t("seat.bot_named", { bot: tf("bot", s.bot || "greedy") });
    else if (s.seat === S.seat) who = t("seat.you_named", { name: s.name });
    list.append(el("li", `seat-${s.kind}`, `${t("seat.default", { n: s.seat + 1 })}: ${who}`));
  }
}

/** The invite box: link, QR code, spectate link; open by itself while seats are awaited. */
function renderInvite() {
  const box = $("invite-box");
  // Shown by itself while seats are awaited (for the seated host); the Invite button
  // opens or closes it at any time.
  const waiting = !S.view && S.table && S.seat !== null && freeSeats().length > 0;
  const shown = S.inviteShown ?? waiting;
  box.hidden = !shown || S.replay;
  $("invite-toggle").hidden = S.replay;
  if (box.hidden) return;
  const url = inviteUrl();
  if ($("invite").value !== url) {
    $("invite").value = url;
    $("qr").replaceChildren(qrImage(url, t("invite.qr")));
  }
  const watch = `${url}?spectate=1`;
  $("spectate-link").href = watch;
  $("spectate-link").textContent = watch;
  $("btn-share").hidden = !navigator.share;
  $("sit").hidden = S.replay || S.seat !== null || !S.table || !freeSeats().length;
  $("leave").hidden = S.replay || S.seat === null;
}

/** A visitor with no seat at a table with a free seat is asked for a name and sat
 *  down directly (the invite link); ?spectate=1 only watches. */
function offerSeat() {
  const dialog = $("join-dialog");
  const open = !S.replay && !spectateOnly && S.seat === null && !S.token && S.table
    && S.table.status !== "finished" && freeSeats().length > 0 && !S.joinDeclined;
  dialog.hidden = !open;
  if (!open) return;
  $("join-what").textContent = t("invite.join_what", {
    game: tf("variant", S.table.variant), n: freeSeats().length,
  });
  const list = $("join-seats");
  list.replaceChildren();
  for (const s of S.table.seats || []) {
    if (s.kind === "open") continue;
    const who = s.kind === "bot" ? t("seat.bot_named", { bot: tf("bot", s.bot || "greedy") }) : s.name;
    list.append(el("li", "", who));
  }
  if (!S.joinOffered) {
    S.joinOffered = true;
    $("join-name").value = playerName();
    $("join-name").focus();
  }
}

function freeSeats() {
  if (!S.table || !S.table.seats) return [];
  return S.table.seats.filter((s) => s.kind === "open");
}

/** Where seat ``i`` sits around the table as this page sees it (the viewer at the bottom). */
function seatPosition(i, players) {
  const rel = (i - (S.seat ?? 0) + players) % players;
  if (rel === 0) return "me";
  if (players === 2) return "top";
  if (players === 3) return rel === 1 ? "left" : "right";
  return ["me", "left", "top", "right"][rel] || "top";
}

function renderSeats() {
  const v = S.view;
  const box = $("seats");
  box.replaceChildren();
  const order = [...Array(v.players).keys()].sort((a, b) => {
    const rank = { left: 0, top: 1, right: 2, me: 3 };
    return rank[seatPosition(a, v.players)] - rank[seatPosition(b, v.players)];
  });
  for (const i of order) {
    const seat = el("div", "seat");
    seat.dataset.seat = String(i);
    seat.dataset.pos = seatPosition(i, v.players);
    if (S.lastMove && S.lastMove.seat === i && S.lastMove.fresh) seat.classList.add("just-moved");
    if (i === v.to_move && !["deal_end", "match_end"].includes(v.phase)) seat.classList.add("to-move");
    if (i === S.seat) seat.classList.add("me");
    const info = S.table && S.table.seats ? S.table.seats.find((s) => s.seat === i) : null;
    const name = el("div", "seat-name", seatName(i));
    if (info && info.kind === "bot") {
      // The name already says which bot plays.
    } else if (info && info.kind === "open") {
      name.append(el("span", "badge open", t("seat.open")));
    } else if (info && info.standin) {
      name.append(el("span", "badge away", t("seat.standin")));
    } else if (info && info.kind === "human" && !info.connected) {
      // Everyone sees how long until a bot plays for the absent player.
      const since = S.awaySince[i] ?? (S.awaySince[i] = Date.now());
      const left = S.grace ? Math.max(0, Math.round(S.grace - (Date.now() - since) / 1000)) : null;
      const text = left === null || v.phase === "match_end" ? t("seat.away") : t("seat.away_in", { s: left });
      name.append(el("span", "badge away", text));
    }
    if (!info || info.connected || info.kind !== "human") delete S.awaySince[i];
    seat.append(name);
    const backs = el("div", "backs");
    if (i !== S.seat) {
      const count = v.rack_sizes[i];
      for (let k = 0; k < Math.min(count, 16); k += 1) backs.append(backElement(material()));
    }
    seat.append(backs);
    const facts = el("div", "seat-facts");
    facts.append(el("span", "count", t("seat.pieces", { n: v.rack_sizes[i] })));
    facts.append(el("span", "total", t("seat.total", { n: v.totals[i] })));
    if (v.opened[i]) facts.append(el("span", "badge opened", t("term.opened")));
    if (v.atu && v.atu[i]) facts.append(el("span", "badge", t("term.atu")));
    if (v.announced_three && v.announced_three[i]) facts.append(el("span", "badge", t("term.three")));
    if (v.board && v.board[i]) facts.append(el("span", "badge", t("term.board")));
    for (const cat of (v.doubles_announced && v.doubles_announced[i]) || []) {
      facts.append(el("span", "badge", `${t("term.doubles")}: ${tf("doubles", cat)}`));
    }
    seat.append(facts);
    if (S.lastMove && S.lastMove.seat === i && i !== S.seat) {
      seat.append(el("div", "seat-last", describe(S.lastMove.text, seatName)));
    }
    box.append(seat);
  }
}

/** What changed since the last frame: the newest move by someone else (shown and
 *  pulsed), new or extended formations and a new discard (briefly animated). */
function trackChanges() {
  const v = S.view;
  const seen = S.seen;
  const history = v.history || [];
  const fresh = history.length > seen.history;
  if (history.length) {
    const [seat, text] = history[history.length - 1];
    S.lastMove = { seat, text, fresh };
  } else {
    S.lastMove = null;
  }
  S.freshFormations = new Set();
  for (const f of v.table) {
    if (seen.table.size && seen.table.get(f.id) !== f.notation) S.freshFormations.add(f.id);
  }
  S.freshColumn = seen.history > 0 && v.column.length > seen.column;
  seen.history = history.length;
  seen.table = new Map(v.table.map((f) => [f.id, f.notation]));
  seen.column = v.column.length;
  if (fresh && myTurn() && !S.wasMyTurn) sound("turn");
  S.wasMyTurn = myTurn();
  if (fresh && ["deal_end", "match_end"].includes(v.phase)) sound("end");
}

const SEEN = "rummykit.seen";

function seenMarks() {
  try { return JSON.parse(localStorage.getItem(SEEN) || "{}"); } catch { return {}; }
}

/** After a (re)connection: the moves of this seat the page never saw being made were a
 *  stand-in bot's (or an expired turn timer's); say what it did.  The page remembers,
 *  per table, how much of the deal's history it has shown. */
function noticeStandin() {
  if (S.seat === null || S.replay) return;
  const v = S.view;
  const history = v.history || [];
  const marks = seenMarks();
  const prev = marks[S.code];
  if (S.checkAway && prev && prev.deal === v.deal_number && history.length > prev.n) {
    const moves = history.slice(prev.n).filter(([s]) => s === S.seat).map(([, a]) => describe(a, seatName));
    if (moves.length) {
      $("away-text").textContent = t("away.bot_played", { moves: moves.join("; ") });
      $("away-notice").hidden = false;
    }
  }
  S.checkAway = false;
  marks[S.code] = { deal: v.deal_number, n: history.length };
  try { localStorage.setItem(SEEN, JSON.stringify(marks)); } catch { /* private mode: no notice */ }
}

/** An opponent's draw pulls from the stock, a take from the discard pile: pulse it. */
function pulsePile() {
  const last = S.lastMove;
  if (!last || !last.fresh || last.seat === S.seat || S.replay) return;
  const verb = String(last.text).split(" ")[0];
  const target = verb === "draw" ? $("stock") : verb === "take" ? $("column-box") : null;
  if (!target) return;
  // Only the pile of the latest move is marked: a draw, then a take, marks the pile.
  $("stock").classList.remove("pulled");
  $("column-box").classList.remove("pulled");
  void target.offsetWidth; // restart the animation
  target.classList.add("pulled");
}

function renderLastMove() {
  const box = $("last-move");
  const last = S.lastMove;
  box.hidden = !last || last.seat < 0 || S.replay;
  if (box.hidden) return;
  box.textContent = t("table.last_move", { name: seatName(last.seat), move: describe(last.text, seatName) });
}

// ------------------------------------------------------------------ settings and sound

const SETTINGS = "rummykit.settings";

function settings() {
  try { return { shapes: false, large: false, sound: false, ...JSON.parse(localStorage.getItem(SETTINGS) || "{}") }; }
  catch { return { shapes: false, large: false, sound: false }; }
}

function applySettings() {
  const now = settings();
  document.body.classList.toggle("shapes", now.shapes);
  document.body.classList.toggle("large", now.large);
  $("opt-shapes").checked = now.shapes;
  $("opt-large").checked = now.large;
  $("opt-sound").checked = now.sound;
}

function saveSettings() {
  localStorage.setItem(SETTINGS, JSON.stringify({
    shapes: $("opt-shapes").checked, large: $("opt-large").checked, sound: $("opt-sound").checked,
  }));
  applySettings();
}

let audio = null;

/** A short tone (no sound file to serve): "turn" rises, "end" falls.  Off unless chosen. */
function sound(kind) {
  if (!settings().sound || S.replay) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    const now = audio.currentTime;
    osc.frequency.setValueAtTime(kind === "turn" ? 660 : 880, now);
    osc.frequency.linearRampToValueAtTime(kind === "turn" ? 880 : 440, now + 0.25);
    gain.gain.setValueAtTime(0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.4);
  } catch {
    // No audio (autoplay policy, no device): the table works without it.
  }
}

function renderCenter() {
  const v = S.view;
  const legalTakes = new Set(S.legal.map(parseAction).filter((a) => a.verb === "take").map((a) => a.target));
  const stock = $("stock");
  stock.replaceChildren(backElement(material()), el("span", "stock-count", t("table.stock_count", { n: v.stock_count })));
  stock.classList.toggle("legal", S.legal.includes("draw"));
  const indicator = $("indicator");
  indicator.replaceChildren();
  $("indicator-box").hidden = !v.indicator;
  if (v.indicator) indicator.append(pieceElement(v.indicator));
  const column = $("column");
  column.replaceChildren();
  v.column.forEach((face, index) => {
    const piece = pieceElement(face, "column-piece");
    piece.dataset.index = String(index);
    if (legalTakes.has(index)) piece.classList.add("legal");
    if (S.freshColumn && index === v.column.length - 1) piece.classList.add("fresh");
    piece.addEventListener("click", () => sendAction(`take ${index}`));
    column.append(piece);
  });
  if (!v.column.length) column.append(el("span", "empty", t("table.column_empty")));
}

function formationTargets() {
  const sel = selectedFaces();
  if (!sel.length) return new Set();
  return new Set(matching(S.legal, ["attach", "exchange"], sel).map((a) => a.target));
}

function renderFormations() {
  const v = S.view;
  const box = $("formations");
  box.replaceChildren();
  const targets = formationTargets();
  for (const f of v.table) {
    const node = el("div", `formation kind-${f.kind}`);
    node.dataset.id = String(f.id);
    if (targets.has(f.id)) node.classList.add("target");
    if (S.freshFormations && S.freshFormations.has(f.id)) node.classList.add("last");
    const label = el("div", "formation-label", `m${f.id} · ${tf("kind", f.kind)} · ${seatName(f.owner)}`);
    const pieces = el("div", "formation-pieces");
    for (const token of formationTokens(f.notation)) {
      pieces.append(pieceElement(token, S.freshFormations && S.freshFormations.has(f.id) ? "fresh" : ""));
    }
    node.append(label, pieces);
    node.addEventListener("click", () => playOnFormation(f.id));
    box.append(node);
  }
  if (!v.table.length) box.append(el("div", "empty", t("table.no_formations")));
}

function renderRack() {
  const rack = $("rack");
  rack.replaceChildren();
  const area = $("rack-area");
  area.hidden = S.seat === null;
  if (S.seat === null || !S.view) return;
  if (S.replay) $("rack-title").textContent = seatName(S.seat);
  else $("rack-title").textContent = material() === "cards" ? t("term.rack_cards") : t("term.rack_tiles");
  const playable = playableFaces(S.legal);
  const sel = selectedFaces();
  const fits = sel.length ? meldContinuations(S.legal, sel) : new Set();
  const mustUse = new Set(S.view.must_use || []);
  S.order.forEach((face, index) => {
    const piece = pieceElement(face, "rack-piece");
    piece.dataset.index = String(index);
    if (S.selected.has(index)) piece.classList.add("selected");
    if (playable.has(face)) piece.classList.add("playable");
    if (fits.has(face) && !S.selected.has(index)) piece.classList.add("fits");
    if (mustUse.has(face)) piece.classList.add("must-use");
    attachDrag(piece, index);
    rack.append(piece);
  });
  renderSelection();
  renderControls();
  renderFormationTargets();
}

function renderFormationTargets() {
  const targets = formationTargets();
  for (const node of document.querySelectorAll(".formation")) {
    node.classList.toggle("target", targets.has(Number(node.dataset.id)));
  }
}

let meldCheckSeq = 0;

/** The formation the selection would make and what it counts toward the opening. */
async function renderSelection() {
  const box = $("selection");
  const sel = selectedFaces();
  box.classList.remove("legal");
  if (!sel.length || !S.view) {
    box.textContent = S.seat === null || S.replay ? "" : t("rack.select_hint");
    return;
  }
  const v = S.view;
  const parts = [t("rack.selected", { n: sel.length })];
  const melds = matching(S.legal, ["meld"], sel);
  const need = v.options && v.options.opening_min_points;
  const opened = v.opened[S.seat];
  box.textContent = parts.join(" · ");
  if (sel.length < 2) return;
  const seq = ++meldCheckSeq;
  let verdict = null;
  try {
    verdict = await api("/api/meldcheck", { variant: v.variant, options: v.options, pieces: sel });
  } catch {
    verdict = null;
  }
  if (seq !== meldCheckSeq) return;
  if (verdict) {
    if (verdict.valid) {
      parts.push(tf("kind", verdict.kind));
      if (verdict.opening_points !== null && verdict.opening_points !== undefined) {
        parts.push(t("rack.points", { n: verdict.opening_points }));
      }
    } else {
      parts.push(t("rack.not_a_formation"));
      const why = localText(verdict.reason);
      if (why) parts.push(why);
    }
  } else if (melds.length) {
    parts.push(t("rack.legal_meld"));
  }
  if (need && !opened) {
    const laid = v.laid_points || 0;
    const adding = verdict && verdict.valid && verdict.opening_points ? verdict.opening_points : 0;
    parts.push(t("rack.opening_progress", { have: laid + adding, need }));
  }
  box.textContent = parts.join(" · ");
  box.classList.toggle("legal", melds.length > 0);
}

function renderControls() {
  const sel = selectedFaces();
  const meld = $("btn-meld");
  const discard = $("btn-discard");
  const playing = S.seat !== null && S.view && !["deal_end", "match_end"].includes(S.view.phase);
  meld.disabled = !playing || sel.length < 1;
  meld.classList.toggle("legal", sel.length > 0 && matching(S.legal, ["meld"], sel).length > 0);
  discard.disabled = !playing || sel.length !== 1;
  discard.classList.toggle("legal", sel.length === 1 && S.legal.includes(`discard ${sel[0]}`));
  $("btn-draw").disabled = !playing;
  $("btn-draw").classList.toggle("legal", S.legal.includes("draw"));
  $("btn-hint").disabled = !myTurn();
  $("controls").hidden = S.seat === null || S.replay;
  // Everything else the engine allows now gets its own button.
  const extra = $("extra-actions");
  extra.replaceChildren();
  const shown = new Set(["draw", "take", "meld", "attach", "exchange", "discard"]);
  // Swap offers (RULES §9.4) are listed like any other action: the server lists
  // exactly what this seat may know to be legal.
  for (const text of S.legal) {
    const a = parseAction(text);
    if (shown.has(a.verb)) continue;
    const button = el("button", "action legal", describe(text, seatName));
    button.dataset.action = text;
    button.addEventListener("click", () => sendAction(text));
    extra.append(button);
  }
}

function renderLog() {
  const v = S.view;
  const log = $("log");
  log.replaceChildren();
  const shown = v.history.slice(-40);
  log.start = v.history.length - shown.length + 1;
  for (const [seat, text] of shown) {
    const li = el("li", "", `${seatName(seat)}: ${describe(text, seatName)}`);
    li.dataset.action = text;
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
}

function renderResults() {
  const v = S.view;
  const box = $("results");
  box.replaceChildren();
  const summary = $("summary");
  const over = v.phase === "deal_end" || v.phase === "match_end";
  const summaryKey = `${v.results.length}:${v.phase}`;
  summary.hidden = !over || S.summaryDismissed === summaryKey;
  S.summaryKey = summaryKey;
  if (!v.results.length) {
    box.append(el("p", "empty", t("score.none")));
  } else {
    box.append(scoreTable(v));
  }
  if (over) {
    const result = v.results[v.results.length - 1];
    $("summary-title").textContent = v.phase === "match_end" ? t("summary.match_over") : t("summary.deal_over", { n: result ? result.deal : v.deal_number + 1 });
    const body = $("summary-body");
    body.replaceChildren();
    if (result) {
      const how = tf("end", result.end);
      const closer = result.closer === null || result.closer === undefined ? "" : ` — ${seatName(result.closer)}`;
      body.append(el("p", "summary-end", `${how}${closer}`));
      if (result.double_game) body.append(el("p", "", t("summary.double_game")));
      if (result.contract) body.append(el("p", "", t("summary.contract", { name: result.contract })));
      const list = el("table", "summary-table");
      const head = el("tr");
      const heads = [t("score.player"), t("score.table"), t("score.rack"), t("score.notes"), t("score.deal"), t("score.total")];
      for (const text of heads) {
        head.append(el("th", "", text));
      }
      list.append(head);
      for (let i = 0; i < v.players; i += 1) {
        const row = el("tr");
        row.append(el("td", "", seatName(i)),
          el("td", "", String(result.table_values[i] ?? "")), el("td", "", String(result.rack_values[i] ?? "")),
          el("td", "notes", dealNotes(v, result, i).join("; ")),
          el("td", "deal-score", String(result.scores[i])), el("td", "", String(result.totals[i])));
        list.append(row);
      }
      body.append(list);
      for (const line of result.showdown || []) body.append(el("p", "showdown", line));
    }
    if (S.hands) {
      body.append(el("h3", "", t("summary.hands")));
      S.hands.forEach((rack, seat) => {
        const p = el("div", "revealed");
        p.dataset.seat = String(seat);
        p.append(el("span", "", `${seatName(seat)}: `));
        for (const f of rack) p.append(pieceElement(f));
        body.append(p);
      });
    }
    if (v.phase === "match_end") {
      const best = scoreWinners(v);
      body.append(el("p", "winner", t("summary.winners", { names: best.map(seatName).join(", ") })));
    }
    const next = $("btn-next");
    const ready = (S.table && S.table.ready) || [];
    const asked = S.seat !== null && ready.includes(S.seat);
    next.hidden = !S.legal.includes("next") || asked;
    if (v.phase === "deal_end" && !S.replay) {
      // The next deal waits for every human seat; bots never start it for them.
      const awaited = ((S.table && S.table.seats) || [])
        .filter((s) => s.kind === "human" && !ready.includes(s.seat)).map((s) => s.seat);
      const wait = el("p", "awaited");
      wait.id = "awaited";
      wait.textContent = awaited.length
        ? t("summary.awaited", { names: awaited.map(seatName).join(", ") })
        : t("summary.next_when_all");
      if (asked) body.append(el("p", "you-ready", t("summary.you_ready")));
      body.append(wait);
    }
    $("btn-rematch").hidden = v.phase !== "match_end" || S.seat === null || S.replay;
  }
}

/** The bonuses and penalties of seat ``i`` in a finished deal, by name: the closer
 *  and the closing bonus, a whole hand in one turn, never opened, atu, a double game. */
function dealNotes(v, result, i) {
  const options = v.options || {};
  const notes = [];
  if (result.closer === i) {
    notes.push(t("sheet.closed"));
    if (options.closing_bonus) notes.push(t("sheet.closing_bonus", { n: options.closing_bonus }));
    if (result.hand) notes.push(t("sheet.hand"));
  }
  if (options.opening_min_points && result.opened && !result.opened[i]) notes.push(t("sheet.never_opened"));
  if (v.atu && v.atu[i]) notes.push(t("sheet.atu", { n: options.atu_bonus ?? 50 }));
  if (result.three_penalty && result.three_penalty[i]) {
    notes.push(t("sheet.three_penalty", { n: options.three_tile_penalty ?? 500 }));
  }
  if (result.contract && result.closer === i) notes.push(t("sheet.contract", { name: result.contract }));
  if (result.end !== "void" && dealWinners(v, result).includes(i)) notes.unshift(t("sheet.winner"));
  if (result.double_game) notes.push(t("sheet.double_game", { n: options.double_game_multiplier ?? 2 }));
  return notes;
}

// Variants whose PlayRules.match_winner is "lowest" (penalty points); the rest: highest.
const LOWEST_WINS = new Set(["german2", "remmi_de"]);

/** The seats with the best score of one deal (none for a void deal). */
function dealWinners(v, result) {
  if (!result || result.end === "void") return [];
  const scores = result.scores;
  const target = LOWEST_WINS.has(v.variant) ? Math.min(...scores) : Math.max(...scores);
  return scores.map((x, i) => [x, i]).filter(([x]) => x === target).map(([, i]) => i);
}

function scoreWinners(v) {
  if (Array.isArray(S.winners)) return S.winners;
  const last = v.results[v.results.length - 1];
  const totals = last ? last.totals : v.totals;
  const target = LOWEST_WINS.has(v.variant) ? Math.min(...totals) : Math.max(...totals);
  return totals.map((x, i) => [x, i]).filter(([x]) => x === target).map(([, i]) => i);
}

function scoreTable(v) {
  const table = el("table", "score-table");
  const head = el("tr");
  head.append(el("th", "", t("score.deal_no")));
  for (let i = 0; i < v.players; i += 1) head.append(el("th", "", seatName(i)));
  table.append(head);
  for (const r of v.results) {
    const row = el("tr");
    row.append(el("td", "", `${r.deal} (${tf("end", r.end)})`));
    for (let i = 0; i < v.players; i += 1) {
      // The deal's score, then the match total after it (deal by deal).
      const cell = el("td", "", String(r.scores[i]));
      cell.append(el("small", "running", ` (${r.totals[i]})`));
      row.append(cell);
    }
    table.append(row);
  }
  const total = el("tr", "totals");
  total.append(el("td", "", t("score.total")));
  for (let i = 0; i < v.players; i += 1) total.append(el("td", "", String(v.totals[i])));
  table.append(total);
  return table;
}

function renderRules() {
  const v = S.view;
  const howto = $("howto");
  howto.replaceChildren();
  const page = `howto.${v.variant}`;
  if (has(page)) {
    howto.append(el("h3", "", tf("variant", v.variant)));
    for (const para of t(page).split("\n")) howto.append(el("p", "", para));
  }
  const box = $("rules-body");
  box.replaceChildren();
  const meta = S.variants && S.variants.find((x) => x.id === v.variant);
  const need = v.options.opening_min_points;
  if (need) box.append(el("p", "", t("rules.opening", { n: need })));
  const list = el("table", "options");
  const defaults = new Map(((meta && meta.options) || []).map((o) => [o.name, o]));
  for (const [name, value] of Object.entries(v.options)) {
    const row = el("tr");
    const opt = defaults.get(name);
    if (opt && JSON.stringify(opt.default) !== JSON.stringify(value)) row.classList.add("changed");
    const label = el("td", "opt-label", tf("opt", name));
    label.append(el("span", "opt-name", ` (${name})`));
    row.append(label, el("td", "opt-value", formatValue(value)));
    row.append(el("td", "opt-help", optionHelp(name, opt)));
    list.append(row);
  }
  box.append(list);
}

/** An option's one-line explanation in the page's language. */
function optionHelp(name, opt) {
  return has(`opt_help.${name}`) ? tf("opt_help", name) : localText(opt && opt.help);
}

function formatValue(value) {
  if (value === null) return t("option.none");
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (typeof value === "string") return tf("choice", value);
  return String(value);
}

function renderHints() {
  const box = $("hints");
  box.replaceChildren();
  box.hidden = !S.hints.length;
  for (const hint of S.hints) {
    const li = el("li", "hint");
    li.append(el("strong", "", tf("hint.topic", hint.topic)));
    for (const text of hint.actions) {
      // A laydown hint is a sequence: only its next step is legal right now.
      const b = el("button", S.legal.includes(text) ? "action legal" : "action", describe(text, seatName));
      b.dataset.action = text;
      b.addEventListener("click", () => sendAction(text));
      li.append(b);
    }
    li.append(el("span", "reason", hintReason(hint)));
    box.append(li);
  }
}

/** A hint's reason in the page's language: its code and parameters (solver/hints.py
 *  Hint.code, Hint.params) through the catalog, never the English text. */
function hintReason(hint) {
  if (!hint.code || !has(`reason.${hint.code}`)) return localText(hint.reason);
  const p = { ...(hint.params || {}) };
  if (p.target !== undefined) p.target = `m${p.target}`;
  const parts = [tf("reason", hint.code, p)];
  if (p.then_three !== undefined) parts.push(t("reason.then_three", { left: p.then_three }));
  if (p.three_first !== undefined) {
    parts.push(t("reason.three_first", { left: p.three_first, penalty: p.penalty }));
  }
  return parts.join("; ");
}

/** The penalty the rules set for ``text`` now (RULES §9.11 "three", §6.8 a failed
 *  "Remi!" call, §9.13 play on the board), as a message, or null.  The same cases as
 *  ``rummykit.solver.hints.penalty_warning``, read from this seat's view and legal list. */
function penaltyWarning(text) {
  if (!S.view || S.view.to_move !== S.seat) return null;
  const options = S.view.options || {};
  const [verb, rest] = [text.split(" ")[0], text.split(" ").slice(1)];
  if (verb === "discard" && S.legal.includes("three")) {
    // "three" is legal only while it is unannounced and at most 4 tiles are held.
    const left = (S.view.rack || []).length - 1;
    if (left >= 1 && left <= 3) {
      return t("warning.three", { left, penalty: Math.abs(options.three_tile_penalty ?? 500) });
    }
  }
  if (verb === "remi" && rest.length === 0) {
    return t("warning.call", { penalty: options.caller_failure_penalty ?? -20 });
  }
  if (verb === "board") {
    return t("warning.board", { penalty: Math.abs(options.unopened_penalty ?? 100) });
  }
  return null;
}

function askToConfirm(message, text) {
  $("warning-text").textContent = message;
  const dialog = $("warning");
  dialog.dataset.action = text;
  dialog.hidden = false;
  $("warning-cancel").focus();
}

// ------------------------------------------------------------------ playing

/** Send the one action that fits, let the player choose among several, or send the
 *  player's attempt as written so the server can say which rule it breaks. */
function offer(candidates, attempt) {
  if (candidates.length === 1) {
    sendAction(candidates[0].text);
  } else if (candidates.length > 1) {
    choose(candidates.map((a) => a.text));
  } else if (attempt) {
    sendAction(attempt);
  }
}

function choose(texts) {
  const dialog = $("chooser");
  const list = $("chooser-list");
  list.replaceChildren();
  for (const text of texts) {
    const b = el("button", "action legal", describe(text, seatName));
    b.dataset.action = text;
    b.addEventListener("click", () => { dialog.hidden = true; sendAction(text); });
    list.append(b);
  }
  dialog.hidden = false;
}

function meldSelection() {
  const sel = selectedFaces();
  if (!sel.length) return;
  offer(matching(S.legal, ["meld"], sel), `meld [${sel.join(" ")}]`);
}

function discardSelection() {
  const sel = selectedFaces();
  if (sel.length !== 1) {
    showMessage(t("rack.pick_one"), "error");
    return;
  }
  sendAction(`discard ${sel[0]}`);
}

function playOnFormation(id, faces = null) {
  const sel = faces || selectedFaces();
  if (!sel.length || S.seat === null) return;
  const attempt = sel.length === 1 ? `attach ${sel[0]} -> m${id}` : `exchange ${sel.join(" ")} -> m${id}`;
  offer(matching(S.legal, ["attach", "exchange"], sel, id), attempt);
}

function toggle(index) {
  if (S.selected.has(index)) S.selected.delete(index);
  else S.selected.add(index);
  renderRack();
}

// Pointer events serve mouse, pen and touch alike: a press that does not move is a click
// (select); a drag reorders the rack, or drops the piece on the discard pile or a formation.
function attachDrag(piece, index) {
  piece.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    down.preventDefault();
    const startX = down.clientX;
    const startY = down.clientY;
    let ghost = null;
    piece.setPointerCapture(down.pointerId);
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - startX, e.clientY - startY) < 6) return;
      if (!ghost) {
        ghost = piece.cloneNode(true);
        ghost.classList.add("ghost");
        document.body.append(ghost);
        piece.classList.add("dragging");
      }
      ghost.style.left = `${e.clientX - 18}px`;
      ghost.style.top = `${e.clientY - 26}px`;
      markDrop(e.clientX, e.clientY);
    };
    const up = (e) => {
      piece.removeEventListener("pointermove", move);
      piece.removeEventListener("pointerup", up);
      piece.removeEventListener("pointercancel", up);
      if (!ghost) {
        if (e.type === "pointerup") toggle(index);
        return;
      }
      ghost.remove();
      piece.classList.remove("dragging");
      clearDropMarks();
      // Drop after this input event: re-rendering the rack now would detach the touched
      // piece before its touchend, and Chrome then drops the click of the next tap.
      const { clientX: x, clientY: y } = e;
      if (e.type === "pointerup") setTimeout(() => drop(index, x, y), 0);
    };
    piece.addEventListener("pointermove", move);
    piece.addEventListener("pointerup", up);
    piece.addEventListener("pointercancel", up);
  });
}

function under(x, y) {
  const hit = document.elementFromPoint(x, y);
  if (!hit) return {};
  return {
    formation: hit.closest(".formation"),
    discard: hit.closest("#column-box, #btn-discard"),
    rack: hit.closest("#rack"),
  };
}

function markDrop(x, y) {
  clearDropMarks();
  const { formation, discard } = under(x, y);
  if (formation) formation.classList.add("drop");
  if (discard) $("column-box").classList.add("drop");
}

function clearDropMarks() {
  for (const node of document.querySelectorAll(".drop")) node.classList.remove("drop");
}

function drop(index, x, y) {
  const { formation, discard, rack } = under(x, y);
  const faces = S.selected.has(index) ? selectedFaces() : [S.order[index]];
  if (formation) {
    playOnFormation(Number(formation.dataset.id), faces);
  } else if (discard) {
    sendAction(`discard ${S.order[index]}`);
  } else if (rack) {
    const pieces = [...document.querySelectorAll("#rack .rack-piece")];
    let to = pieces.length;
    for (const [i, node] of pieces.entries()) {
      const box = node.getBoundingClientRect();
      if (y < box.bottom && (y < box.top || x < box.left + box.width / 2)) { to = i; break; }
    }
    const [face] = S.order.splice(index, 1);
    S.order.splice(to > index ? to - 1 : to, 0, face);
    S.selected.clear();
    saveRack();
    renderRack();
  }
}

async function rematch() {
  try {
    const made = await api(`/api/tables/${encodeURIComponent(S.code)}/rematch`, {}, S.token);
    if (made.token) rememberSeat(made.code, made.seat, made.token);
    location.href = `/t/${encodeURIComponent(made.code)}`;
  } catch (err) {
    showMessage(errorText(err), "error");
  }
}

async function leave() {
  if (!window.confirm(t("table.leave_confirm"))) return;
  try {
    await api(`/api/tables/${encodeURIComponent(S.code)}/leave`, {}, S.token);
  } catch (err) {
    showMessage(errorText(err), "error");
    return;
  }
  forgetSeat(S.code);
  location.href = "/";
}

async function sitDown(name = null) {
  const free = freeSeats();
  const body = { name: name || playerName() || t("seat.guest") };
  if (free.length) body.seat = free[0].seat;
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(S.code)}/join`, body);
    rememberSeat(S.code, joined.seat, joined.token);
    location.reload();
  } catch (err) {
    showMessage(errorText(err), "error");
  }
}

// ------------------------------------------------------------------ chat

// Quick phrases travel as their key and are shown in each reader's language.
const CHAT_PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "your_turn", "rematch", "bye"];
const CHAT_KEPT = 100;

function hearChat(lines) {
  S.chat = S.chat || [];
  const known = new Set(S.chat.map((l) => l.seq));
  let fresh = 0;
  for (const line of lines) {
    if (known.has(line.seq)) continue;
    S.chat.push(line);
    if (line.seat !== S.seat) fresh += 1;
  }
  S.chat.sort((a, b) => a.seq - b.seq);
  S.chat = S.chat.slice(-CHAT_KEPT);
  if ($("chat").hidden) S.unread = (S.unread || 0) + fresh;
  renderChat();
}

/** Every line is text (textContent), never markup: what a player typed is shown as typed. */
function renderChat() {
  const log = $("chat-log");
  log.replaceChildren();
  for (const line of S.chat || []) {
    const item = el("li", line.seat === S.seat ? "chat-line mine" : "chat-line");
    item.dataset.seq = String(line.seq);
    item.append(el("span", "chat-who", `${seatName(line.seat)}: `));
    const said = line.phrase ? tf("chat.phrase", line.phrase) : line.text;
    item.append(el("span", line.phrase ? "chat-text phrase" : "chat-text", said));
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
  const badge = $("chat-unread");
  badge.hidden = !S.unread;
  badge.textContent = S.unread ? String(S.unread) : "";
  const reader = S.seat === null || S.replay;
  $("chat-form").hidden = reader;
  $("chat-phrases").hidden = reader;
  $("chat-readonly").hidden = !reader;
  const phrases = $("chat-phrases");
  if (phrases.childElementCount !== CHAT_PHRASES.length || phrases.dataset.lang !== currentLanguage()) {
    phrases.dataset.lang = currentLanguage();
    phrases.replaceChildren(...CHAT_PHRASES.map((key) => {
      const button = el("button", "small phrase", tf("chat.phrase", key));
      button.type = "button";
      button.dataset.phrase = key;
      button.addEventListener("click", () => send({ type: "chat", phrase: key }));
      return button;
    }));
  }
}

function sendChat(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) input.value = "";
}

// ------------------------------------------------------------------ start

function wire() {
  $("btn-meld").addEventListener("click", meldSelection);
  $("btn-discard").addEventListener("click", discardSelection);
  $("btn-draw").addEventListener("click", () => sendAction("draw"));
  $("stock").addEventListener("click", () => { if (S.seat !== null) sendAction("draw"); });
  $("btn-sort-colour").addEventListener("click", () => sortRack(colourKey));
  $("btn-sort-number").addEventListener("click", () => sortRack(numberKey));
  $("btn-clear").addEventListener("click", () => { S.selected.clear(); renderRack(); });
  $("btn-hint").addEventListener("click", () => send({ type: "hint" }));
  $("btn-next").addEventListener("click", () => sendAction("next"));
  $("btn-summary-close").addEventListener("click", () => {
    $("summary").hidden = true;
    S.summaryDismissed = S.summaryKey;
  });
  $("chooser-cancel").addEventListener("click", () => { $("chooser").hidden = true; });
  $("warning-cancel").addEventListener("click", () => { $("warning").hidden = true; });
  $("warning-confirm").addEventListener("click", () => {
    const dialog = $("warning");
    dialog.hidden = true;
    sendAction(dialog.dataset.action, true);
  });
  $("sit").addEventListener("click", sitDown);
  $("leave").addEventListener("click", leave);
  $("btn-rematch").addEventListener("click", rematch);
  $("btn-copy").addEventListener("click", () => {
    $("invite").select();
    navigator.clipboard?.writeText($("invite").value).catch(() => {});
  });
  $("chat-form").addEventListener("submit", sendChat);
  $("away-ok").addEventListener("click", () => { $("away-notice").hidden = true; });
  $("chat-toggle").addEventListener("click", () => {
    $("chat").hidden = !$("chat").hidden;
    S.unread = 0;
    renderChat();
    if (!$("chat").hidden) $("chat").scrollIntoView({ block: "nearest" });
  });
  $("rules-toggle").addEventListener("click", () => {
    $("rules").hidden = !$("rules").hidden;
    if (!$("rules").hidden) $("rules").scrollIntoView({ block: "start" });
  });
  $("invite-toggle").addEventListener("click", () => {
    S.inviteShown = $("invite-box").hidden;
    renderInvite();
    if (S.inviteShown) $("invite-box").scrollIntoView({ block: "start" });
  });
  $("btn-share").addEventListener("click", () => {
    navigator.share?.({ title: t("invite.title"), url: inviteUrl() }).catch(() => {});
  });
  $("settings-toggle").addEventListener("click", () => { $("settings").hidden = false; });
  $("settings-close").addEventListener("click", () => { $("settings").hidden = true; });
  for (const id of ["opt-shapes", "opt-large", "opt-sound"]) $(id).addEventListener("change", saveSettings);
  $("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) return;
    rememberName(name);
    sitDown(name);
  });
  $("join-watch").addEventListener("click", () => { S.joinDeclined = true; $("join-dialog").hidden = true; });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { $("chooser").hidden = true; S.selected.clear(); renderRack(); }
  });
  setInterval(renderDeadline, 1000);
  setInterval(() => { if (S.view && Object.keys(S.awaySince).length) renderSeats(); }, 1000);
}

// ------------------------------------------------------------------ replay

async function showStep(step) {
  const answer = await api(`/api/tables/${encodeURIComponent(S.code)}/replay/${step}`);
  S.step = answer.step;
  S.events = answer.events;
  S.views = answer.views;
  showSeat();
}

/** The replayed position as ``S.seat`` saw it: its rack, everyone else's backs. */
function showSeat() {
  S.view = S.views[S.seat];
  S.legal = [];
  S.order = [...(S.view.rack || [])];
  S.selected.clear();
  S.hands = S.view.phase === "match_end" ? S.views.map((w) => w.rack) : null;
  render();
  renderReplayBar();
}

function renderReplayBar() {
  $("replay-step").textContent = t("replay.step", { n: S.step, total: S.events });
  $("replay-first").disabled = $("replay-prev").disabled = S.step <= 0;
  $("replay-next").disabled = $("replay-last").disabled = S.step >= S.events;
  const seat = $("replay-seat");
  if (seat.options.length !== S.views.length) {
    seat.replaceChildren();
    S.views.forEach((_, i) => {
      const option = el("option", "", t("seat.default", { n: i + 1 }));
      option.value = String(i);
      seat.append(option);
    });
  }
  seat.value = String(S.seat);
}

function startReplay() {
  $("replay-bar").hidden = false;
  $("help").hidden = true;
  S.seat = 0;
  const go = (step) => {
    const target = Math.max(0, Math.min(S.events, step));
    if (target !== S.step || !S.views) showStep(target).catch((err) => showMessage(errorText(err), "error"));
  };
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-prev").addEventListener("click", () => go(S.step - 1));
  $("replay-next").addEventListener("click", () => go(S.step + 1));
  $("replay-last").addEventListener("click", () => go(S.events));
  $("replay-seat").addEventListener("change", (e) => { S.seat = Number(e.target.value); showSeat(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") go(S.step - 1);
    if (e.key === "ArrowRight") go(S.step + 1);
  });
  api(`/api/tables/${encodeURIComponent(S.code)}`)
    .then((info) => { S.table = info; return showStep(0); })
    .catch((err) => showMessage(errorText(err), "error"));
}

function renderDeadline() {
  const box = $("deadline");
  if (!S.deadline) { box.hidden = true; return; }
  const left = Math.max(0, Math.round(S.deadline - Date.now() / 1000));
  box.hidden = false;
  // The person to move is told a stand-in bot will play when the time runs out.
  box.textContent = myTurn() ? t("turn.deadline_mine", { s: left }) : t("turn.deadline", { s: left });
}

async function main() {
  await setLanguage(pickLanguage());
  languagePicker($("lang"));
  onLanguageChange(() => { applyTranslations(document); render(); });
  wire();
  applySettings();
  const held = spectateOnly || replayMode ? null : seatAt(code);
  if (held) { S.token = held.token; S.seat = held.seat; }
  api("/api/variants").then((list) => { S.variants = list; if (S.view) renderRules(); }).catch(() => {});
  if (S.replay) {
    startReplay();
    return;
  }
  render();
  connect();
}

main();
