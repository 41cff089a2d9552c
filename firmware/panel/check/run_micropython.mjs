// Runs a script under MicroPython's WebAssembly port, with the panel's files on its filesystem
// as the deploy lays them out on the Pico: node run_micropython.mjs SCRIPT FILE...
import fs from "fs";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const [script, ...files] = process.argv.slice(2);
const mp = await loadMicroPython({ stdout: (line) => process.stdout.write(line + "\n"), linebuffer: true });
for (const file of files) mp.FS.writeFile("/" + file.split("/").pop(), fs.readFileSync(file));
mp.runPython("import sys\nsys.path.insert(0, '/')");
try {
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (err) {
  process.stderr.write(String(err.message || err) + "\n");
  process.exit(1);
}
