import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rpav } from "../support/cli.js";

// Directly under /tmp: the postgres user must be able to reach the cluster folder.
const dir = `/tmp/rpav-db-cli-${process.pid}`;
const args = ["--dir", join(dir, "pg"), "--port", "54339"];
const privateDir = mkdtempSync(join(tmpdir(), "rpav-db-private-"));
afterAll(() => {
  rpav(["db", "down", ...args]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(privateDir, { recursive: true, force: true });
});

describe("rpav db", () => {
  it.runIf(process.getuid?.() === 0)("as root, a cluster folder the postgres user cannot reach is a clear error", () => {
    const r = rpav(["db", "up", "--dir", join(privateDir, "pg"), "--port", "54338"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[store_error\]: The postgres user cannot reach .*rpav-db-private-.*choose a folder it can reach/);
  });

  it("up prints RPAV_PG_URL, is idempotent, status reports it, down stops it", () => {
    const up = rpav(["db", "up", ...args]);
    expect(up.code, up.stderr).toBe(0);
    // The app role (not a superuser) on its own database; its password stays in the 0600 pgpass file.
    expect(up.stdout.trim()).toBe("export RPAV_PG_URL='postgres://rpav_app@127.0.0.1:54339/rpav'");
    expect(rpav(["db", "up", ...args]).code).toBe(0);
    expect(rpav(["db", "status", ...args]).stdout).toMatch(/PostgreSQL up on 127\.0\.0\.1:54339/);
    const url = "postgres://rpav_app@127.0.0.1:54339/rpav";
    const exp = rpav(["--store", "postgres", "--pg-url", url, "store", "export", join(dir, "out")]);
    expect(exp.stdout).toMatch(/0 screen states, 0 elements, 0 vectors/);
    expect(rpav(["db", "down", ...args]).code).toBe(0);
    // A new cluster on the same port (the old folder gone, its password entry still kept): its own role and password.
    rmSync(join(dir, "pg"), { recursive: true, force: true });
    expect(rpav(["db", "up", ...args]).code).toBe(0);
    expect(rpav(["--store", "postgres", "--pg-url", url, "store", "export", join(dir, "out2")]).stdout).toMatch(/0 screen states/);
    expect(rpav(["db", "down", ...args]).code).toBe(0);
    const status = rpav(["db", "status", ...args]);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/not running/);
  });
});
