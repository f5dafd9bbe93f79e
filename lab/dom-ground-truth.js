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
  const toggleLabel = (el) => (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio") ? el.labels?.[0] : undefined);
  const union = (rs) => ({
    left: Math.min(...rs.map((q) => q.left)),
    top: Math.min(...rs.map((q) => q.top)),
    right: Math.max(...rs.map((q) => q.right)),
    bottom: Math.max(...rs.map((q) => q.bottom)),
  });
  // Many frameworks hide the real input (transparent, clipped, 1 px, or fixed out of the way) and paint the box with
  // their label: a ::before / ::after, or an empty element inside the label (an icon, a switch's track).
  const drawnByLabel = (el) => {
    if (!toggleLabel(el)) return false;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.opacity === "0" || r.width < 4 || r.height < 4 || (!!s.clip && s.clip !== "auto") || /inset\(50%\)/.test(s.clipPath ?? "");
  };
  const textRects = (host) => {
    const out = [];
    const tw = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const q of Array.from(range.getClientRects())) if (q.width >= 1 && q.height >= 1) out.push(q);
    }
    return out;
  };
  // The containing block of an absolutely placed box inside `host` (CSS 2 §10.1): the nearest of host and its ancestors
  // whose position is not static, within the document's body; none (the viewport) is left out.
  const containingBlock = (host, hs) => {
    for (let e = host, cs = hs; e && e !== document.body && e !== document.documentElement; e = e.parentElement, cs = e && getComputedStyle(e)) {
      if (cs.position !== "static" || (cs.transform && cs.transform !== "none")) return { cs, cr: e.getBoundingClientRect() };
    }
    return undefined;
  };
  // The boxes of an element's painted ::before / ::after: absolutely placed from their offsets, or (in the flow) a ::before
  // sits just before the element's first text.
  const pseudoRects = (host) => {
    const out = [];
    const hs = getComputedStyle(host);
    const hr = host.getBoundingClientRect();
    for (const which of ["::before", "::after"]) {
      const s = getComputedStyle(host, which);
      if (!s.content || s.content === "none" || s.content === "normal" || s.display === "none" || s.visibility === "hidden") continue;
      // Border-box size (the computed width and height leave out padding and borders in content-box sizing).
      const px = (v) => parseFloat(v) || 0;
      const content = s.boxSizing !== "border-box";
      const w = px(s.width) + (content ? px(s.paddingLeft) + px(s.paddingRight) + px(s.borderLeftWidth) + px(s.borderRightWidth) : 0);
      const h = px(s.height) + (content ? px(s.paddingTop) + px(s.paddingBottom) + px(s.borderTopWidth) + px(s.borderBottomWidth) : 0);
      if (!(w >= 2 && h >= 2)) continue;
      let dx = 0;
      let dy = 0;
      const m = /^matrix\(1, 0, 0, 1, (-?[\d.]+), (-?[\d.]+)\)$/.exec(s.transform);
      if (m) {
        dx = Number(m[1]);
        dy = Number(m[2]);
      }
      if (s.position === "absolute") {
        // Placed in its containing block: the host when positioned, else its nearest positioned ancestor (GOV.UK's radio
        // discs are their label's ::before placed in the item around the label).
        const block = containingBlock(host, hs);
        if (!block) continue;
        const { cs, cr } = block;
        const bl = parseFloat(cs.borderLeftWidth) || 0;
        const bt = parseFloat(cs.borderTopWidth) || 0;
        const x = s.left !== "auto" ? cr.left + bl + parseFloat(s.left) : s.right !== "auto" ? cr.right - (parseFloat(cs.borderRightWidth) || 0) - parseFloat(s.right) - w : hr.left + bl;
        const y = s.top !== "auto" ? cr.top + bt + parseFloat(s.top) : s.bottom !== "auto" ? cr.bottom - (parseFloat(cs.borderBottomWidth) || 0) - parseFloat(s.bottom) - h : hr.top + bt;
        out.push({ left: x + dx, top: y + dy, right: x + dx + w, bottom: y + dy + h });
      } else if (which === "::before" && s.position !== "fixed") {
        const first = textRects(host)[0];
        if (!first) continue;
        const right = first.left - (parseFloat(s.marginRight) || 0);
        const cy = (first.top + first.bottom) / 2;
        out.push({ left: right - w + dx, top: cy - h / 2 + dy, right: right + dx, bottom: cy + h / 2 + dy });
      }
    }
    return out;
  };
  const paintedRect = (el, label) => {
    const parts = [...textRects(label)];
    for (const e of [label, ...Array.from(label.querySelectorAll("*"))]) {
      if (e === el) continue;
      parts.push(...pseudoRects(e));
      if (e === label || (e.textContent ?? "").trim() || getComputedStyle(e).display === "none") continue;
      const q = e.getBoundingClientRect();
      if (q.width >= 2 && q.height >= 2 && q.width <= 80 && q.height <= 60) parts.push(q);
    }
    if (!parts.length) return el.getBoundingClientRect();
    const u = union(parts);
    const r = el.getBoundingClientRect();
    // The hidden input counts where it lies on the painted box (it is the click target there).
    if (r.width >= 4 && r.height >= 4 && r.left <= u.right + 2 && r.right >= u.left - 2 && r.top <= u.bottom + 2 && r.bottom >= u.top - 2) return union([u, r]);
    return u;
  };
  const toggleRect = (el) => {
    const r = el.getBoundingClientRect();
    const label = toggleLabel(el);
    if (label && drawnByLabel(el) && visible(label)) return paintedRect(el, label);
    if (!label || !visible(label)) return r;
    const range = document.createRange();
    range.selectNodeContents(label);
    const rects = Array.from(range.getClientRects()).filter((q) => q.width >= 1 && q.height >= 1);
    if (!rects.length) return r;
    return union([r, ...rects]);
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
    if (!type) continue;
    // A check box painted by its label is seen where the label is.
    if (!visible(el) && !(drawnByLabel(el) && getComputedStyle(el).display !== "none" && visible(toggleLabel(el)))) continue;
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
