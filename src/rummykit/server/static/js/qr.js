// The invite link as a QR code, drawn in the browser by the vendored MIT-licensed
// qrcode-generator (vendor/qrcode.js, Kazuhiko Arase; licence in vendor/qrcode.LICENSE.txt).

import { qrcode } from "./vendor/qrcode.js";

/** An <img> showing ``text`` as a QR code (error correction M, a GIF data URL). */
export function qrImage(text, alt = "") {
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  const img = document.createElement("img");
  const cell = Math.max(2, Math.floor(168 / (code.getModuleCount() + 8)));
  img.src = code.createDataURL(cell, cell * 4);
  img.alt = alt;
  img.className = "qr-image";
  img.dataset.text = text;
  return img;
}
