// Ground truth from the DOM of a page rendered in headless Chromium (lab tool, not a product
// code path): visible, topmost interactive elements with their box, label and our type, plus the
// visible words with their boxes; the same JSON shape as the AT-SPI exporter (src/lab/atspi.ts).
// Plain browser JavaScript: injected with page.addScriptTag, then called as
// window.rpavCollectGroundTruth(). Boxes are in screenshot pixels (CSS pixels × devicePixelRatio).
function rpavCollectGroundTruth() {
  const dpr = window.devicePixelRatio || 1;
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const box = (r) => [
    Math.round(Math.max(0, r.left) * dpr),
    Math.round(Math.max(0, r.top) * dpr),
    Math.round(Math.min(vw, r.right) * dpr),
    Math.round(Math.min(vh, r.bottom) * dpr),
  ];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) return false;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === "none" || s.visibility === "hidden" || s.visibility === "collapse") return false;
      // Styled checkboxes and radios hide the real input with opacity 0 but keep it clickable.
      if (s.opacity === "0" && !(e === el && el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio"))) return false;
    }
    // Topmost: what is hit at the centre is the element or inside it (or its label).
    const cx = Math.min(vw - 1, Math.max(0, (r.left + r.right) / 2));
    const cy = Math.min(vh - 1, Math.max(0, (r.top + r.bottom) / 2));
    const hit = document.elementFromPoint(cx, cy);
    if (!hit) return false;
    if (el.contains(hit) || hit.contains(el)) return true;
    const label = hit.closest("label");
    return !!label && (label.control === el || label.contains(el));
  };
  const text = (s) => (s ?? "").replace(/\s+/g, " ").trim();
  const labelOf = (el) => {
    const aria = el.getAttribute("aria-label");
    if (aria) return text(aria);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      if (el instanceof HTMLInputElement && ["button", "submit", "reset"].includes(el.type)) return text(el.value);
      const labels = el.labels;
      if (labels && labels.length > 0) return text(labels[0]?.textContent);
      if (el instanceof HTMLSelectElement) return text(el.selectedOptions[0]?.textContent);
      return text(el.getAttribute("placeholder") ?? el.value);
    }
    return text(el.innerText ?? el.textContent);
  };
  const typeOf = (el) => {
    const role = el.getAttribute("role");
    if (role === "tab" || el.closest(".nav-tabs, .govuk-tabs__list") && el.tagName === "A") return "tab";
    if (el instanceof HTMLInputElement) {
      if (el.type === "checkbox") return "checkbox";
      if (el.type === "radio") return "radio_button";
      if (["button", "submit", "reset", "image"].includes(el.type)) return "button";
      if (el.type === "hidden") return undefined;
      if (["range", "color", "file"].includes(el.type)) return "generic_interactive";
      return "text_input";
    }
    if (el instanceof HTMLTextAreaElement) return "text_input";
    if (el instanceof HTMLSelectElement) return "dropdown";
    if (el instanceof HTMLButtonElement || role === "button") return el.getAttribute("aria-haspopup") === "listbox" ? "dropdown" : "button";
    if (role === "checkbox" || role === "switch") return "checkbox";
    if (role === "radio") return "radio_button";
    if (role === "combobox" || role === "listbox") return "dropdown";
    if (el instanceof HTMLAnchorElement && el.hasAttribute("href")) return el.classList.contains("btn") || el.classList.contains("govuk-button") ? "button" : "link";
    if (role === "link") return "link";
    if (role === "menuitem" || role === "option" || role === "slider") return "generic_interactive";
    return undefined;
  };
  // A check box or radio button is its box and its label's text beside it, as on the desktop
  // (AT-SPI's check and radio buttons, UI Automation's CheckBox) and as a click toggles it; the
  // DOM gives the input alone. The label's text only: not the block around it.
  const toggleRect = (el) => {
    const r = el.getBoundingClientRect();
    const label = el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") ? el.labels?.[0] : undefined;
    if (!label || !visible(label)) return r;
    const range = document.createRange();
    range.selectNodeContents(label);
    const rects = Array.from(range.getClientRects()).filter((q) => q.width >= 1 && q.height >= 1);
    if (!rects.length) return r;
    return {
      left: Math.min(r.left, ...rects.map((q) => q.left)),
      top: Math.min(r.top, ...rects.map((q) => q.top)),
      right: Math.max(r.right, ...rects.map((q) => q.right)),
      bottom: Math.max(r.bottom, ...rects.map((q) => q.bottom)),
    };
  };
  // AT-SPI's state names where they apply: checked (a ticked box, a pressed toggle), selected (the current tab), disabled.
  const statesOf = (el) => {
    const states = [];
    if (el.checked === true || el.getAttribute("aria-checked") === "true" || el.getAttribute("aria-pressed") === "true") states.push("checked");
    if (el.getAttribute("aria-selected") === "true" || (el.getAttribute("role") === "tab" && el.getAttribute("aria-current"))) states.push("selected");
    if (el.disabled === true || el.getAttribute("aria-disabled") === "true" || el.closest("fieldset:disabled")) states.push("disabled");
    return states;
  };
  const elements = [];
  const seen = new Set();
  const candidates = document.querySelectorAll("a[href], button, input, select, textarea, [role=button], [role=tab], [role=checkbox], [role=radio], [role=switch], [role=link], [role=combobox], [role=menuitem], [role=slider]");
  for (const el of Array.from(candidates)) {
    if (seen.has(el)) continue;
    // An interactive element inside another (an icon link inside a button) counts once: the outer one.
    const outer = el.parentElement?.closest("a[href], button, [role=button], [role=tab], [role=link]");
    if (outer && outer !== el && typeOf(outer)) continue;
    const type = typeOf(el);
    if (!type || !visible(el)) continue;
    seen.add(el);
    elements.push({ type, label: labelOf(el), bbox: box(toggleRect(el)), source_role: el.getAttribute("role") ?? el.tagName.toLowerCase() + (el instanceof HTMLInputElement ? `[type=${el.type}]` : ""), states: statesOf(el) });
  }
  // Screen-reader-only text ("visually hidden": clipped to a 1×1 box) is in the DOM but not on screen.
  const clippedAway = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      const r = e.getBoundingClientRect();
      if ((s.overflow === "hidden" || s.position === "absolute") && (r.width <= 1 || r.height <= 1)) return true;
      if (s.clip && s.clip !== "auto" && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(s.clip)) return true;
      if (s.clipPath && /inset\(50%\)/.test(s.clipPath)) return true;
    }
    return false;
  };
  const words = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!parent || !n.textContent?.trim() || ["SCRIPT", "STYLE", "NOSCRIPT", "OPTION"].includes(parent.tagName)) continue;
    if (!visible(parent) && !(parent.getClientRects().length > 0 && getComputedStyle(parent).visibility === "visible" && parent.offsetParent !== null)) continue;
    const s = n.textContent;
    const re = /\S+/g;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rects = range.getClientRects();
      const r = rects[0];
      if (!r || r.width < 1 || r.height < 1 || r.bottom <= 0 || r.top >= vh || r.right <= 0 || r.left >= vw) continue;
      const hit = document.elementFromPoint(Math.min(vw - 1, (r.left + r.right) / 2), Math.min(vh - 1, (r.top + r.bottom) / 2));
      if (!hit || !(hit === parent || parent.contains(hit) || hit.contains(parent))) continue;
      if (clippedAway(parent)) continue;
      words.push({ text: m[0], bbox: box(r) });
    }
  }
  return { elements, words };
}

window.rpavCollectGroundTruth = rpavCollectGroundTruth;
