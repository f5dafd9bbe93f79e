"""The data engine: generated screens with pixel-exact element boxes from four rendering stacks, cached and resumable.

  npm run train -- data                         generate up to the default counts, then write the manifest
  npm run train -- data --manifest-only         only (re)write training/data-manifest.json from what is on disk
  npm run train -- data --only ids.txt          only these screens (one id per line, - for stdin), each made with its own seed;
                                                the manifest is left as it is (the benches' screens: npm run train -- bench-screens)
  npm run train -- data --gtk 2600 --qt 1500 --tk 1200 --html 2000 --html2 1500 --html3 600 --scale2 0.25

HTML pages 0–1999 (--html) are the first five kits, as listed in the manifest; pages from 2000 on (--html2) add 14 CSS
frameworks, generated styles (synth) and whole-screen layouts (training/gen/gen-html.ts). An --html count over 2000 is
read as --html 2000 plus the rest in --html2. Pages from 10040 on (--html3) are those layouts in nine training kits with
large check boxes and radios (1.5–2.6 times their caption's letters, as accessible design systems draw them); pages
10000–10039 are kept for detect-families (training/fold-split.ts BENCH_TOGGLE_PAGES), never made here.

Screens go to training/data/<stack>/ (ignored by git); each generator skips the screens already there (screen i is seeded
by i, so a rerun remakes the same). GTK and Tk run on their own Xvfb displays (:60–:63 or --display-base N..N+3, brought up here when absent);
Qt renders off screen; HTML runs in headless Chromium. Everything runs under nice 19 (the machine is shared).
The manifest lists every screen with the SHA-256 of its image and its ground truth; its own hash goes with the model.
"""
import argparse, hashlib, json, os, shutil, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
GEN = os.path.join(HERE, "gen")
PY = "/usr/bin/python3"
DEBIAN = ["python3-gi", "gir1.2-gtk-3.0", "python3-pyqt5", "python3-tk", "python3-torch", "python3-onnx", "python3-numpy", "xvfb",
          "gnome-themes-extra", "arc-theme", "numix-gtk-theme", "materia-gtk-theme", "greybird-gtk-theme", "breeze-gtk-theme",
          "fonts-noto-core", "fonts-liberation2", "fonts-cantarell", "chromium"]


def check_packages(generation_only=False):
    missing = []
    for p in DEBIAN:
        if generation_only and p in ("python3-torch", "python3-onnx", "python3-numpy"):
            continue
        r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True)
        if "install ok installed" not in r.stdout:
            missing.append(p)
    if missing:
        sys.exit("missing Debian packages for the data engine: " + " ".join(missing) + "\n  install them: apt-get install -y --no-install-recommends " + " ".join(missing))


def xvfb(display, size):
    if subprocess.run(["xdpyinfo", "-display", f":{display}"], capture_output=True).returncode == 0:
        return None
    p = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", f"{size}x24", "-nolisten", "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if subprocess.run(["xdpyinfo", "-display", f":{display}"], capture_output=True).returncode == 0:
            return p
        time.sleep(0.1)
    sys.exit(f"Xvfb :{display} did not start")


HTML2_FROM = 2000  # gen-html.ts V2_FROM
HTML3_FROM = 10040  # gen-html.ts V3_FROM, after the 40 pages detect-families keeps (fold-split.ts BENCH_TOGGLE_PAGES)
V3_FROM = 10000


def html_stack(i):
    """Which --html count page i belongs to: html (the first five kits), html2 (more kits, layouts), html3 (large toggles)."""
    return "html" if i < HTML2_FROM else "html2" if i < V3_FROM else "html3"


def bench_only(stack, fname):
    """Pages detect-families keeps (V3_FROM ≤ i < HTML3_FROM): made by bench-screens, never listed in the manifest."""
    tail = fname[:-5].rsplit("-", 1)[-1]
    return stack == "html" and tail.isdigit() and V3_FROM <= int(tail) < HTML3_FROM


def count(stack):
    """Screens on disk for a progress bar: html, html2 and html3 share a folder and are told apart by their index."""
    d = os.path.join(DATA, "html" if stack in ("html2", "html3") else stack)
    if not os.path.isdir(d):
        return 0
    names = [f for f in os.listdir(d) if f.endswith(".json")]
    if stack in ("html", "html2", "html3"):
        idx = [(f, int(f[:-5].rsplit("-", 1)[1])) for f in names if f[:-5].rsplit("-", 1)[-1].isdigit()]
        return sum(1 for f, i in idx if html_stack(i) == stack and not bench_only("html", f))
    return len(names)


def bar(done, total, width=30):
    k = int(width * min(1.0, done / max(1, total)))
    return "[" + "#" * k + "." * (width - k) + f"] {done}/{total}"


def write_manifest(path):
    rows = []
    for stack in sorted(os.listdir(DATA)) if os.path.isdir(DATA) else []:
        d = os.path.join(DATA, stack)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".json") or not os.path.exists(os.path.join(d, f[:-5] + ".png")) or bench_only(stack, f):
                continue
            with open(os.path.join(d, f), "rb") as fh:
                jb = fh.read()
            with open(os.path.join(d, f[:-5] + ".png"), "rb") as fh:
                pb = fh.read()
            m = json.loads(jb)
            types = {}
            for e in m["elements"]:
                types[e["type"]] = types.get(e["type"], 0) + 1
            rows.append({"id": m["id"], "family": m["family"], "subfamily": m["subfamily"], "scale": m["variant"].get("scale"), "dark": bool(m["variant"].get("dark")),
                         "width": m["width"], "height": m["height"], "elements": len(m["elements"]), "png_sha256": hashlib.sha256(pb).hexdigest(),
                         "json_sha256": hashlib.sha256(jb).hexdigest()})
    per_family, per_type = {}, {}
    for r in rows:
        k = r["family"] if r["family"] not in ("html", "dev") else f"{r['family']}/{r['subfamily']}"
        s = per_family.setdefault(k, {"screens": 0, "elements": 0})
        s["screens"] += 1
        s["elements"] += r["elements"]
    for stack in sorted(os.listdir(DATA)) if os.path.isdir(DATA) else []:
        d = os.path.join(DATA, stack)
        for f in (sorted(os.listdir(d)) if os.path.isdir(d) else []):
            if f.endswith(".json") and not bench_only(stack, f):
                with open(os.path.join(d, f)) as fh:
                    for e in json.load(fh)["elements"]:
                        per_type[e["type"]] = per_type.get(e["type"], 0) + 1
    body = {"schema": "rpav_training_manifest_v1", "screens": len(rows), "elements": sum(r["elements"] for r in rows), "per_family": per_family,
            "per_type": dict(sorted(per_type.items())), "files": rows}
    with open(path, "w") as fh:
        json.dump(body, fh, indent=0, ensure_ascii=False)
        fh.write("\n")
    with open(path, "rb") as fh:
        h = hashlib.sha256(fh.read()).hexdigest()
    print(f"manifest: {len(rows)} screens, {body['elements']} elements → {path} (sha256 {h[:16]}…)")
    return h


def import_dev_corpus(src):
    """The dev corpus of real apps and pages (`npm run corpus` → bench/corpus/out: GTK apps with AT-SPI truth, admin-lte 2/3 and
    GOV.UK with DOM truth) as one more family, `dev/<source>`: each screen and its elements copied into training/data/dev/ in
    the generators' JSON. Its screens are real applications, not generated: the family is reported apart."""
    if not os.path.isdir(src):
        sys.exit(f"no dev corpus at {src}: build it first with `npm run corpus`")
    out = os.path.join(DATA, "dev")
    os.makedirs(out, exist_ok=True)
    n = 0
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json") or f == "index.json":
            continue
        with open(os.path.join(src, f)) as fh:
            c = json.load(fh)
        sid = "dev-" + c["id"]
        png = os.path.join(src, c["image"])
        if not os.path.exists(png):
            continue
        shutil.copyfile(png, os.path.join(out, sid + ".png"))
        els = [{"type": e["type"], "bbox": e["bbox"], "label": e.get("label", ""), "state": {s: True for s in e.get("states", [])}, "source": e.get("source_role", "")}
               for e in c["elements"]]
        meta = {"id": sid, "family": "dev", "subfamily": c["source"], "variant": {"theme": c["source"], "dark": c["variant"]["theme"] == "dark", "scale": c["variant"]["scale"]},
                "width": c["width"], "height": c["height"], "image": sid + ".png", "elements": els}
        with open(os.path.join(out, sid + ".json"), "w") as fh:
            json.dump(meta, fh, ensure_ascii=False)
        n += 1
    print(f"dev corpus: {n} screens from {src} → {out}")


def read_ids(path):
    text = sys.stdin.read() if path == "-" else open(path).read()
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_id(sid):
    """A generated screen's id → (stack, scale, index): gtk-s2-00178 → ("gtk", 2, 178), html-bulma-00262 → ("html", None, 262)."""
    parts = sid.split("-")
    if parts[0] in ("gtk", "qt", "tk") and len(parts) == 3 and parts[1] in ("s1", "s2") and parts[2].isdigit():
        return parts[0], int(parts[1][1:]), int(parts[2])
    if parts[0] == "html" and len(parts) >= 3 and parts[-1].isdigit():
        return "html", None, int(parts[-1])
    return None


def only_jobs(ids, jobs):
    """The generator commands of `jobs` made to produce exactly `ids` (--indices instead of --count): one process per stack
    and scale. Returns those jobs and the ids wanted per stack (for the progress bar)."""
    by = {}
    for sid in ids:
        p = parse_id(sid)
        if p is None:
            print(f"{sid}: not a generated screen's id (dev corpus screens come from --dev-corpus): skipped")
            continue
        stack, scale, i = p
        by.setdefault((stack, scale), []).append((i, sid))
    out, wanted = [], {}
    for name, cmd, env in jobs:
        if name in ("html2", "html3"):
            continue
        if name == "html":
            key = ("html", None)
        else:
            key = (name, int(cmd[cmd.index("--scale") + 1]))
        if key not in by:
            continue
        c = list(cmd)
        k = c.index("--count")
        del c[k:k + 2]
        if "--start" in c:
            k = c.index("--start")
            del c[k:k + 2]
        c += ["--indices", ",".join(str(i) for i, _ in by[key])]
        out.append((name, c, env))
        wanted.setdefault(name, []).extend(sid for _, sid in by[key])
    return out, wanted


def made(stack, wanted):
    """How many of the screens wanted of `stack` are on disk."""
    return sum(1 for sid in wanted.get(stack, []) if os.path.exists(os.path.join(DATA, stack, sid + ".json")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gtk", type=int, default=2600)
    ap.add_argument("--qt", type=int, default=1500)
    ap.add_argument("--tk", type=int, default=1200)
    ap.add_argument("--html", type=int, default=2500, help=f"HTML pages from index 0 (at most {HTML2_FROM}; the rest is added to --html2)")
    ap.add_argument("--html2", type=int, default=0, help=f"HTML pages from index {HTML2_FROM} on: more CSS frameworks, synth styles, layouts")
    ap.add_argument("--html3", type=int, default=600, help=f"HTML pages from index {HTML3_FROM} on: the layouts of --html2 in nine training kits with large check boxes and radios")
    ap.add_argument("--scale2", type=float, default=0.27, help="share of the GTK / Qt / Tk counts also made at scale 2")
    ap.add_argument("--manifest", default=os.path.join(HERE, "data-manifest.json"))
    ap.add_argument("--manifest-only", action="store_true")
    ap.add_argument("--dev-corpus", metavar="DIR", help="also import the dev corpus of real apps and pages (bench/corpus/out, built by `npm run corpus`) as family dev/<source>")
    ap.add_argument("--display-base", type=int, default=60, help="first of the four Xvfb displays used (N..N+3)")
    ap.add_argument("--only", metavar="FILE", help="make only the screens listed (ids of the manifest, one per line; - reads stdin), each with its own seed, and leave the manifest as it is")
    a = ap.parse_args()
    if a.html > HTML2_FROM:
        a.html2 += a.html - HTML2_FROM
        a.html = HTML2_FROM
    if not a.manifest_only:
        check_packages(generation_only=bool(a.only))
        os.makedirs(DATA, exist_ok=True)
        d0 = a.display_base
        started = [xvfb(d0, "1920x1080"), xvfb(d0 + 1, "3840x2160"), xvfb(d0 + 2, "1920x1080"), xvfb(d0 + 3, "3840x2160")]
        nice = ["nice", "-n", "19"]
        env = dict(os.environ, NO_AT_BRIDGE="1", PYTHONUNBUFFERED="1")
        n2 = lambda n: int(n * a.scale2)
        jobs = [
            ("gtk", nice + [PY, os.path.join(GEN, "gen_gtk.py"), "--out", os.path.join(DATA, "gtk"), "--count", str(a.gtk), "--scale", "1"], dict(env, DISPLAY=f":{d0}", GDK_SCALE="1")),
            ("gtk", nice + [PY, os.path.join(GEN, "gen_gtk.py"), "--out", os.path.join(DATA, "gtk"), "--count", str(n2(a.gtk)), "--scale", "2"], dict(env, DISPLAY=f":{d0 + 1}", GDK_SCALE="2")),
            ("qt", nice + [PY, os.path.join(GEN, "gen_qt.py"), "--out", os.path.join(DATA, "qt"), "--count", str(a.qt), "--scale", "1"], dict(env, QT_QPA_PLATFORM="offscreen")),
            ("qt", nice + [PY, os.path.join(GEN, "gen_qt.py"), "--out", os.path.join(DATA, "qt"), "--count", str(n2(a.qt)), "--scale", "2"], dict(env, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2")),
            ("tk", nice + [PY, os.path.join(GEN, "gen_tk.py"), "--out", os.path.join(DATA, "tk"), "--count", str(a.tk), "--scale", "1"], dict(env, DISPLAY=f":{d0 + 2}")),
            ("tk", nice + [PY, os.path.join(GEN, "gen_tk.py"), "--out", os.path.join(DATA, "tk"), "--count", str(n2(a.tk)), "--scale", "2"], dict(env, DISPLAY=f":{d0 + 3}")),
            ("html", nice + [shutil.which("npx") or "npx", "tsx", os.path.join(GEN, "gen-html.ts"), "--out", os.path.join(DATA, "html"), "--count", str(a.html)], env),
            ("html2", nice + [shutil.which("npx") or "npx", "tsx", os.path.join(GEN, "gen-html.ts"), "--out", os.path.join(DATA, "html"), "--start", str(HTML2_FROM), "--count", str(a.html2)], env),
            ("html3", nice + [shutil.which("npx") or "npx", "tsx", os.path.join(GEN, "gen-html.ts"), "--out", os.path.join(DATA, "html"), "--start", str(HTML3_FROM), "--count", str(a.html3)], env),
        ]
        jobs = [j for j in jobs if (j[0] != "html2" or a.html2 > 0) and (j[0] != "html3" or a.html3 > 0)]
        target = {"gtk": a.gtk + n2(a.gtk), "qt": a.qt + n2(a.qt), "tk": a.tk + n2(a.tk), "html": a.html}
        if a.html2 > 0:
            target["html2"] = a.html2
        if a.html3 > 0:
            target["html3"] = a.html3
        wanted = None
        if a.only:
            jobs, wanted = only_jobs(read_ids(a.only), jobs)
            target = {k: len(v) for k, v in wanted.items()}
        logs = os.path.join(DATA, "logs")
        os.makedirs(logs, exist_ok=True)
        procs = [subprocess.Popen(cmd, env=e, cwd=ROOT, stdout=open(os.path.join(logs, f"{name}-{i}.log"), "a"), stderr=subprocess.STDOUT) for i, (name, cmd, e) in enumerate(jobs)]
        try:
            while any(p.poll() is None for p in procs):
                line = "  ".join(f"{k} {bar(made(k, wanted) if wanted else count(k), v, 12)}" for k, v in target.items())
                print(f"\r{line}", end="", flush=True)
                time.sleep(5)
        finally:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            for x in started:
                if x:
                    x.terminate()
        print()
        failed = [jobs[i][0] for i, p in enumerate(procs) if p.returncode not in (0, None)]
        if failed:
            print(f"generators that failed (see {logs}): {failed}")
    if a.dev_corpus:
        import_dev_corpus(a.dev_corpus)
    if not a.only:
        write_manifest(a.manifest)


if __name__ == "__main__":
    main()
