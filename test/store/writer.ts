// Child process for the durability tests: writes batches of rows into a SQLite store, one
// transaction per batch, and prints "committed <n>" after each commit.
// Usage: tsx test/store/writer.ts <dataDir> <prefix> <batches> <batchSize>
import { SqliteStore } from "../../src/store/sqlite-store.js";

const [dir, prefix, batches, size] = process.argv.slice(2);
const store = SqliteStore.open(dir as string);
let n = 0;
for (let b = 0; b < Number(batches); b++) {
  await store.transaction(async () => {
    for (let i = 0; i < Number(size); i++) {
      const k = b * Number(size) + i;
      // The vector encodes its own index, so a torn row would be detectable.
      await store.putVector(`${prefix}/${k}.npy`, prefix as string, Float32Array.from({ length: 512 }, (_, j) => k + j / 1000));
    }
  });
  n += Number(size);
  process.stdout.write(`committed ${n}\n`);
}
await store.close();
