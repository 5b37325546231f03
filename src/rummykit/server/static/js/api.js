// HTTP calls to the lobby API and the seat tokens this browser holds.

const SEATS = "rummykit.seats";
const NAME = "rummykit.name";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * Call the HTTP API: GET without ``body``, else POST it as JSON.  A seat ``token`` goes
 * in the Authorization header, never in the URL (URLs end up in access logs).
 */
export async function api(path, body = undefined, token = null) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  const init = body === undefined
    ? { method: "GET", headers }
    : { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!response.ok) {
    // FastAPI's own errors say "detail"; ours say code and message.
    const detail = data && (data.detail ?? data);
    const code = (detail && detail.code) || String(response.status);
    const message = (detail && (detail.message || (typeof detail === "string" ? detail : null)))
      || JSON.stringify(detail);
    throw new ApiError(response.status, code, message);
  }
  return data;
}

function seats() {
  try { return JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch { return {}; }
}

/** The seat and token this browser holds at table ``code``, or null. */
export function seatAt(code) {
  return seats()[code] || null;
}

export function rememberSeat(code, seat, token) {
  const all = seats();
  all[code] = { seat, token };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export function forgetSeat(code) {
  const all = seats();
  delete all[code];
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export function playerName() {
  return localStorage.getItem(NAME) || "";
}

export function rememberName(name) {
  localStorage.setItem(NAME, name);
}

export function tableUrl(code) {
  return `/t/${encodeURIComponent(code)}`;
}

/** A random id for an action, also where crypto.randomUUID is missing (plain-HTTP LAN pages). */
export function newActionId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
