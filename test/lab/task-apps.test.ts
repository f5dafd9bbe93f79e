// The generated task apps (lab/task-apps) the replay bench and lab tests judge by: in each toolkit
// (GTK 3, Tk, Qt 5, and HTML in Chromium — plain and drawn by Bulma — whose oracle is written by its local HTTP endpoint)
// the window shows under the task's title, the geometry the scripted person uses lies inside it,
// and the oracle says what was typed and saved — and says "not saved" before Save is pressed.
import { afterAll, describe, expect, it } from "vitest";
import { bboxCenter, type BBox, type Point } from "../../src/core/geometry.js";
import { sleep } from "../../src/core/process.js";
import { existsSync, readFileSync } from "node:fs";
import { genEditorTasks, genListTasks, genHtmlInscriptionTask, genQtConsentTask, genTasks, type GenDialogGeometry, type GenTaskRun } from "../../src/lab/gen-tasks.js";
import { labKit } from "./support.js";

const kit = labKit();
afterAll(() => kit.cleanup());

const inside = (b: BBox, w: BBox) => b[0] >= w[0] && b[1] >= w[1] && b[2] <= w[2] && b[3] <= w[3] && b[2] > b[0] && b[3] > b[1];

describe("generated task apps", () => {
  for (const family of ["gtk", "tk", "qt", "html", "html-bulma", "qt-windows", "gtk-highcontrast"] as const) {
    it(`${family}: geometry inside the window, the oracle reads what was typed and saved`, async () => {
      const task = genTasks()[family];
      const run = (await task.start({ env: kit.env }, kit.windows, {}, task.recorded)) as GenTaskRun;
      try {
        const g = await run.geometry();
        const win = run.app.window.bbox;
        for (const b of [g.save, g.search, g.canvas, ...Object.values(g.fields)]) expect(inside(b, win), JSON.stringify({ b, win })).toBe(true);
        await kit.windows.activate(run.app.window.id);
        await kit.input.click(bboxCenter(g.fields.client!).map(Math.round) as unknown as Point);
        await sleep(300);
        await kit.input.type("Zoé");
        await kit.input.click(bboxCenter(g.save).map(Math.round) as unknown as Point);
        const got = JSON.parse(await run.observe()) as { fields: (string | null)[]; saved: boolean };
        expect(got.saved).toBe(true);
        expect(got.fields[0]).toBe("Zoé");
        expect(got.fields.slice(1)).toEqual(["", ""]);
      } finally {
        await run.stop();
      }
    }, 60_000);
  }

  // The dialog families: a button opens a modal dialog (its own window, the page's <dialog> in HTML); its OK keeps the
  // text typed there and closes it.
  for (const family of ["gtk-dialog", "tk-dialog", "qt-dialog", "html-dialog"] as const) {
    it(`${family}: the dialog opens from its button, its field's text is kept by its OK, and the oracle reads it once saved`, async () => {
      const task = genTasks()[family];
      const run = (await task.start({ env: kit.env }, kit.windows, {}, task.recorded)) as GenTaskRun;
      try {
        const g = await run.geometry();
        expect(inside(g.opener!, run.app.window.bbox)).toBe(true);
        await kit.windows.activate(run.app.window.id);
        await kit.input.click(bboxCenter(g.opener!).map(Math.round) as unknown as Point);
        const f = `${run.out}.dialog.json`;
        for (let k = 0; k < 50 && !existsSync(f); k++) await sleep(100);
        const d = JSON.parse(readFileSync(f, "utf8")) as GenDialogGeometry;
        if (family !== "html-dialog") expect((await kit.windows.active())?.title).toBe("Livraison");
        await kit.input.click(bboxCenter(d.field).map(Math.round) as unknown as Point);
        await sleep(300);
        await kit.input.type("Zoé");
        await kit.input.click(bboxCenter(d.ok).map(Math.round) as unknown as Point);
        for (let k = 0; k < 50 && existsSync(f); k++) await sleep(100);
        expect(existsSync(f)).toBe(false);
        await sleep(300);
        await kit.input.click(bboxCenter(g.save).map(Math.round) as unknown as Point);
        const got = JSON.parse(await run.observe()) as { dialog: string | null; saved: boolean };
        expect(got).toMatchObject({ saved: true, dialog: "Zoé" });
      } finally {
        await run.stop();
      }
    }, 60_000);
  }

  // bench/actor's tasks: a check box under the fields, the fields in a scrolled area, values already there.
  for (const task of [genQtConsentTask(), genHtmlInscriptionTask()]) {
    it(`${task.name}: the check box is saved, a box or a field already filled shows so, the oracle judges the box`, async () => {
      const [k0] = task.keys;
      const run = (await task.start({ env: kit.env }, kit.windows, {}, task.recorded, { values: { [k0!]: "Déjà", [task.check!]: "1" } })) as GenTaskRun;
      try {
        const g = await run.geometry();
        const win = run.app.window.bbox;
        expect(inside(g.checks![task.check!]!, win), JSON.stringify({ g, win })).toBe(true);
        await kit.windows.activate(run.app.window.id);
        // Untick the box (its indicator, at the left of the widget), then save.
        const b = g.checks![task.check!]!;
        await kit.input.click([Math.round(b[0] + Math.min(8, (b[2] - b[0]) / 4)), Math.round(bboxCenter(b)[1])]);
        await sleep(300);
        await kit.input.click(bboxCenter(g.save).map(Math.round) as unknown as Point);
        const got = JSON.parse(await run.observe()) as { fields: (string | null)[]; checked: boolean; saved: boolean };
        expect(got).toMatchObject({ saved: true, checked: false });
        expect(got.fields[0]).toBe("Déjà");
      } finally {
        await run.stop();
      }
    }, 60_000);
  }

  // The editors: a line typed at the end of the document; « * » before the title while it is modified; the oracle is the saved text.
  for (const family of ["gtk-editor", "tk-editor", "qt-editor", "html-editor"] as const) {
    it(`${family}: the typed line ends the saved text, the title shows « * » until it is saved`, async () => {
      const task = genEditorTasks()[family];
      const run = await task.start({ env: kit.env }, kit.windows, {}, task.recorded);
      try {
        const g = run.geometry<{ save: BBox; text: BBox }>();
        const win = run.app.window.bbox;
        for (const b of [g.save, g.text]) expect(inside(b, win), JSON.stringify({ b, win })).toBe(true);
        await kit.windows.activate(run.app.window.id);
        await kit.input.click([Math.round((g.text[0] + g.text[2]) / 2), Math.round(g.text[1] + 0.7 * (g.text[3] - g.text[1]))]);
        await sleep(300);
        await kit.input.type("Zoé");
        await sleep(500);
        expect((await kit.windows.active())?.title).toBe(`*${task.title}`);
        await kit.input.click(bboxCenter(g.save).map(Math.round) as unknown as Point);
        const got = JSON.parse(await run.observe()) as { text: string; saved: boolean };
        expect(got).toEqual({ text: "Commande n° 2026-118\nFournisseur : Papeterie Moderne\nArticles : 12 classeurs, 4 agrafeuses\nZoé", saved: true });
        await sleep(300);
        expect((await kit.windows.active())?.title).toBe(task.title);
      } finally {
        await run.stop();
      }
    }, 60_000);
  }

  // The lists: an item picked among items that differ by a few characters; the oracle is the item selected when the action ran.
  for (const family of ["gtk-list", "tk-list", "qt-list", "html-list"] as const) {
    it(`${family}: every item's row inside the list's window, the item clicked is the one the action saves`, async () => {
      const task = genListTasks()[family];
      const run = await task.start({ env: kit.env }, kit.windows, {}, task.recorded);
      try {
        const g = run.geometry<{ items: Record<string, BBox>; field: BBox; action: BBox }>();
        const win = run.app.window.bbox;
        expect(Object.keys(g.items)).toHaveLength(7);
        for (const b of [...Object.values(g.items), g.field, g.action]) expect(inside(b, win), JSON.stringify({ b, win })).toBe(true);
        await kit.windows.activate(run.app.window.id);
        await kit.input.click(bboxCenter(g.items["Dossier 2026-016 — Simon"]!).map(Math.round) as unknown as Point);
        await sleep(300);
        await kit.input.click(bboxCenter(g.field).map(Math.round) as unknown as Point);
        await sleep(300);
        await kit.input.type("Zoé");
        await kit.input.click(bboxCenter(g.action).map(Math.round) as unknown as Point);
        expect(JSON.parse(await run.observe())).toEqual({ selected: "Dossier 2026-016 — Simon", motif: "Zoé", saved: true });
      } finally {
        await run.stop();
      }
    }, 60_000);
  }
});
