// The studio's only script (no inline script is allowed by the page's Content Security Policy).
// Everything shown from the server's data is set with textContent, never as HTML.
/* global document, Element, HTMLInputElement, EventSource */
"use strict";

// Ask: a click on the screenshot gives the point in the screenshot's own pixels; the server converts it to the screen.
document.addEventListener("click", (ev) => {
  const img = ev.target instanceof Element ? ev.target.closest(".ask-shot")?.querySelector("img") : null;
  if (!img) return;
  const form = img.closest("form");
  const box = img.getBoundingClientRect();
  if (!form || box.width === 0 || box.height === 0) return;
  const x = ((ev.clientX - box.left) * img.naturalWidth) / box.width;
  const y = ((ev.clientY - box.top) * img.naturalHeight) / box.height;
  form.elements.namedItem("px").value = String(Math.round(x * 10) / 10);
  form.elements.namedItem("py").value = String(Math.round(y * 10) / 10);
  form.requestSubmit();
});

// Start: a chosen CSV file is read into the form's text area.
document.addEventListener("change", (ev) => {
  const input = ev.target;
  if (!(input instanceof HTMLInputElement) || !input.dataset.csvInto || !input.files?.[0]) return;
  const area = document.getElementById(input.dataset.csvInto);
  input.files[0].text().then((text) => {
    if (area) area.value = text;
  });
});

// Live: follow a run's trace as it grows.
function followLive() {
  const list = document.querySelector("[data-live]");
  if (!list) return;
  const status = document.getElementById("live-status");
  const link = document.getElementById("live-link");
  const add = (text, cls) => {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    list.appendChild(li);
  };
  const source = new EventSource(list.dataset.live);
  source.addEventListener("trace", (ev) => {
    const e = JSON.parse(ev.data);
    add(e.text, e.status || e.type);
    if (e.run_id && link) {
      const a = link.querySelector("a");
      a.href = "/runs/" + encodeURIComponent(e.run_id);
      link.hidden = false;
    }
  });
  source.addEventListener("log", (ev) => add(JSON.parse(ev.data).text, "log"));
  source.addEventListener("done", (ev) => {
    const d = JSON.parse(ev.data);
    source.close();
    if (status) {
      status.textContent = d.signal ? "interrupted (" + d.signal + ")" : d.exit === 0 ? "passed" : d.exit === null ? "ended" : "failed (exit " + d.exit + ")";
      status.className = d.signal ? "interrupted" : d.exit === 0 ? "passed" : "failed";
    }
  });
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", followLive);
else followLive();
