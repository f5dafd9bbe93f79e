// `rpav secret set|list|rm`: the credential store (values encrypted at rest with AES-256-GCM; the
// key in the OS keyring when secret-tool works here, else a 0600 key file in the data directory).
import type { Command } from "commander";
import { InvalidInputError } from "../../core/errors.js";
import { checkSecretName } from "../../store/secret-files.js";
import { resolveDataDir, type GlobalOptions } from "../config.js";
import { openSecretStore, readHidden, readStdinValue } from "../secrets.js";
import type { CliIo } from "./desktop.js";

export function registerSecretCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const dataDir = () => resolveDataDir(program.opts<GlobalOptions>(), io.env);
  const secret = program.command("secret").description("the credential store for secret workflow variables (encrypted at rest; never on the command line)");

  secret
    .command("set <name>")
    .description("store a secret: typed on the terminal without echo (twice), or read from stdin when it is not a terminal")
    .action(async (name: string) => {
      checkSecretName(name);
      let value: string;
      if (process.stdin.isTTY) {
        value = await readHidden(`Value for « ${name} »: `, process.stdin, process.stderr);
        const again = await readHidden("Again, to confirm: ", process.stdin, process.stderr);
        if (again !== value) throw new InvalidInputError("The two values differ; nothing was stored.");
      } else value = await readStdinValue();
      const store = await openSecretStore(dataDir(), io.env);
      await store.set(name, value);
      io.err(`stored « ${name} » in ${await store.describe()}\n`);
    });

  secret
    .command("list")
    .description("the names of the stored secrets (never their values)")
    .option("--json", "print {store, names} as JSON")
    .action(async (o: { json?: boolean }) => {
      const store = await openSecretStore(dataDir(), io.env);
      const names = await store.list();
      if (o.json) io.out(`${JSON.stringify({ store: await store.describe(), names }, null, 2)}\n`);
      else {
        io.err(`${names.length} secret(s) in ${await store.describe()}\n`);
        for (const n of names) io.out(`${n}\n`);
      }
    });

  secret
    .command("rm <name>")
    .description("remove a stored secret")
    .action(async (name: string) => {
      const store = await openSecretStore(dataDir(), io.env);
      if (await store.remove(name)) io.err(`removed « ${name} »\n`);
      else {
        io.err(`rpav: no secret named « ${name} » (rpav secret list shows the names)\n`);
        setExit(1);
      }
    });
}
