// The lobby: create a table (variant, options shown, seats, bots), join by code,
// watch or join an open table, browse finished games.

import { api, playerName, rememberName, rememberSeat, tableUrl } from "./api.js";
import { has, languagePicker, localText, onLanguageChange, pickLanguage, setLanguage, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// The server's bots by level (rummykit.bots.BOTS): the expert's three levels first.
const BOT_KINDS = ["easy", "medium", "hard", "greedy", "random"];
const DEFAULT_BOT = "bot:medium";
let variants = [];

function tf(family, value) {
  const key = `${family}.${value}`;
  return has(key) ? t(key) : String(value);
}

function el(tag, cls = "", text = null) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== null) node.textContent = text;
  return node;
}

function showMessage(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

function errorText(err) {
  const code = err && err.code;
  const head = code && has(`error.${code}`) ? t(`error.${code}`) : t("error.generic");
  const detail = localText(err && err.message);
  return detail ? `${head}: ${detail}` : head;
}

function currentVariant() {
  return variants.find((v) => v.id === $("variant").value) || variants[0];
}

function formatValue(value) {
  if (value === null || value === undefined) return t("option.none");
  if (value === true) return t("option.yes");
  if (value === false) return t("option.no");
  if (typeof value === "string") return tf("choice", value);
  return String(value);
}

function fillVariants() {
  const select = $("variant");
  const keep = select.value || "remi_ro";
  select.replaceChildren(...variants.map((v) => new Option(`${tf("variant", v.id)}`, v.id)));
  select.value = variants.some((v) => v.id === keep) ? keep : variants[0].id;
}

function onVariant() {
  const v = currentVariant();
  if (!v) return;
  // The first paragraph of the game's how-to-play page, in the page's language.
  $("variant-summary").textContent = has(`howto.${v.id}`)
    ? tf("howto", v.id).split("\n")[0]
    : localText(v.summary || v.title);
  const players = $("players");
  players.min = v.players.min;
  players.max = v.players.max;
  players.value = Math.min(Math.max(Number(players.value) || v.players.default, v.players.min), v.players.max);
  fillSeats();
  fillOptions();
}

/** One row per seat: you (the first seat), a friend's open seat, or a bot. */
function fillSeats() {
  const box = $("seat-config");
  const count = Number($("players").value);
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren();
  for (let i = 0; i < count; i += 1) {
    const row = el("label", "seat-row");
    row.append(el("span", "", t("seat.default", { n: i + 1 })));
    if (i === 0) {
      row.append(el("strong", "", t("lobby.seat_you")));
    } else {
      const select = document.createElement("select");
      select.dataset.seat = String(i);
      select.append(new Option(t("lobby.seat_open"), "open"));
      for (const bot of BOT_KINDS) select.append(new Option(t("seat.bot_named", { bot: tf("bot", bot) }), `bot:${bot}`));
      select.value = before[i - 1] || (i >= 2 ? DEFAULT_BOT : "open");
      row.append(select);
    }
    box.append(row);
  }
}

function fillOptions() {
  const v = currentVariant();
  const table = $("options");
  table.replaceChildren();
  for (const opt of v.options) {
    const row = el("tr");
    row.dataset.option = opt.name;
    const label = el("td", "opt-label", tf("opt", opt.name));
    label.append(el("span", "opt-name", ` (${opt.name})`));
    row.append(label);
    const cell = el("td");
    let input;
    if (opt.choices) {
      input = document.createElement("select");
      for (const c of opt.choices) input.append(new Option(formatValue(c), JSON.stringify(c)));
      if (opt.nullable) input.append(new Option(t("option.none"), "null"));
      input.value = JSON.stringify(opt.default);
    } else if (opt.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Boolean(opt.default);
    } else {
      input = document.createElement("input");
      input.type = opt.type === "int" || opt.type === "float" ? "number" : "text";
      if (opt.minimum !== undefined) input.min = opt.minimum;
      if (opt.maximum !== undefined) input.max = opt.maximum;
      input.value = opt.default === null ? "" : String(opt.default);
      if (opt.nullable) input.placeholder = t("option.none");
    }
    input.dataset.option = opt.name;
    input.addEventListener("change", () => row.classList.toggle("changed", changedValue(opt, input) !== undefined));
    cell.append(input);
    const help = has(`opt_help.${opt.name}`) ? tf("opt_help", opt.name) : localText(opt.help);
    row.append(cell, el("td", "opt-help", help));
    table.append(row);
  }
}

/** The option's value if the player changed it from the default, else undefined. */
function changedValue(opt, input) {
  let value;
  if (opt.choices) value = JSON.parse(input.value);
  else if (opt.type === "bool") value = input.checked;
  else if (input.value.trim() === "") value = opt.nullable ? null : opt.default;
  else if (opt.type === "int") value = Number.parseInt(input.value, 10);
  else if (opt.type === "float") value = Number(input.value);
  else value = input.value;
  return JSON.stringify(value) === JSON.stringify(opt.default) ? undefined : value;
}

async function create(event) {
  event.preventDefault();
  const v = currentVariant();
  const name = $("name").value.trim();
  rememberName(name);
  const options = {};
  for (const opt of v.options) {
    const input = document.querySelector(`#options [data-option="${opt.name}"]:not(tr)`);
    const value = input ? changedValue(opt, input) : undefined;
    if (value !== undefined) options[opt.name] = value;
  }
  const bots = [];
  for (const select of document.querySelectorAll("#seat-config select")) {
    if (select.value.startsWith("bot:")) bots.push({ seat: Number(select.dataset.seat), bot: select.value.slice(4) });
  }
  const timer = $("timer").value;
  const body = {
    variant: v.id, players: Number($("players").value), options, bots, name,
    turn_timer: timer ? Number(timer) : null,
  };
  try {
    const made = await api("/api/tables", body);
    if (made.token !== null && made.token !== undefined) rememberSeat(made.code, made.seat, made.token);
    location.href = tableUrl(made.code);
  } catch (err) {
    showMessage(errorText(err));
  }
}

function describeTable(info) {
  const box = el("div", "table-info");
  box.append(el("p", "", `${tf("variant", info.variant)} · ${t("lobby.players_n", { n: info.players })} · ${tf("status", info.status)}`));
  const changed = Object.entries(info.options_changed || {});
  box.append(el("p", "", changed.length
    ? `${t("lobby.changed_options")}: ${changed.map(([k, x]) => `${tf("opt", k)} = ${formatValue(x)}`).join(", ")}`
    : t("lobby.default_rules")));
  if (info.turn_timer) box.append(el("p", "", t("lobby.timer_n", { s: info.turn_timer })));
  const seats = el("ul", "seat-list");
  for (const s of info.seats || []) {
    let who = s.name;
    if (s.kind === "open") who = t("seat.open");
    else if (s.kind === "bot") who = t("seat.bot_named", { bot: tf("bot", s.bot || "greedy") });
    seats.append(el("li", `seat-${s.kind}`, `${t("seat.default", { n: s.seat + 1 })}: ${who}`));
  }
  box.append(seats);
  return box;
}

async function join(code, seat = undefined) {
  const name = $("name").value.trim();
  rememberName(name);
  const body = { name };
  if (seat !== undefined) body.seat = seat;
  try {
    const joined = await api(`/api/tables/${encodeURIComponent(code)}/join`, body);
    rememberSeat(code, joined.seat, joined.token);
    location.href = tableUrl(code);
  } catch (err) {
    showMessage(errorText(err));
  }
}

function tableButtons(info) {
  const span = el("span", "buttons");
  if (info.status === "open" && (info.seats || []).some((s) => s.kind === "open")) {
    const b = el("button", "join-button", t("lobby.join_button"));
    b.dataset.code = info.code;
    b.addEventListener("click", () => join(info.code));
    span.append(b);
  }
  const watch = el("a", "watch-link", t("lobby.watch"));
  watch.href = `${tableUrl(info.code)}?spectate=1`;
  span.append(watch);
  return span;
}

async function preview(event) {
  event.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  const box = $("join-preview");
  box.replaceChildren();
  if (!code) return;
  try {
    const info = await api(`/api/tables/${encodeURIComponent(code)}`);
    box.append(el("h3", "", t("lobby.table_code", { code: info.code })), describeTable(info), tableButtons(info));
    box.hidden = false;
    showMessage("");
  } catch (err) {
    box.hidden = true;
    showMessage(errorText(err));
  }
}

async function refreshTables() {
  const table = $("tables");
  let list = [];
  try { list = await api("/api/tables"); } catch (err) { showMessage(errorText(err)); }
  table.replaceChildren();
  if (!list.length) {
    const row = el("tr");
    row.append(el("td", "empty", t("lobby.no_tables")));
    table.append(row);
  }
  for (const info of list) {
    const row = el("tr");
    row.dataset.code = info.code;
    row.append(el("td", "code", info.code));
    const cell = el("td");
    cell.append(describeTable(info));
    row.append(cell);
    const buttons = el("td");
    buttons.append(tableButtons(info));
    row.append(buttons);
    table.append(row);
  }
}

async function refreshGames() {
  const list = $("games");
  let games = [];
  try { games = await api("/api/games"); } catch { games = []; }
  list.replaceChildren();
  if (!games.length) list.append(el("li", "empty", t("lobby.no_games")));
  for (const g of games) {
    const li = el("li");
    li.append(el("span", "", `${g.code} · ${tf("variant", g.variant)} · `));
    const watch = el("a", "", t("lobby.replay"));
    watch.href = `${tableUrl(g.code)}?replay=1`;
    const record = el("a", "", t("lobby.record"));
    record.href = `/api/tables/${encodeURIComponent(g.code)}/record`;
    li.append(watch, el("span", "", " · "), record);
    list.append(li);
  }
}

async function main() {
  await setLanguage(pickLanguage());
  languagePicker($("lang"));
  // A name typed while the page was still loading is kept.
  if (!$("name").value) $("name").value = playerName();
  $("create").addEventListener("submit", create);
  $("join").addEventListener("submit", preview);
  $("refresh").addEventListener("click", refreshTables);
  $("variant").addEventListener("change", onVariant);
  $("players").addEventListener("change", () => { onVariant(); });
  try {
    variants = await api("/api/variants");
  } catch (err) {
    showMessage(errorText(err));
  }
  if (variants.length) {
    fillVariants();
    onVariant();
  }
  onLanguageChange(() => {
    if (variants.length) { fillVariants(); fillSeats(); }
    refreshTables();
    refreshGames();
  });
  const code = new URLSearchParams(location.search).get("code");
  if (code) {
    $("join-code").value = code;
    $("join").requestSubmit();
  }
  refreshTables();
  refreshGames();
  setInterval(refreshTables, 10000);
  document.body.dataset.ready = "1";
}

main();
