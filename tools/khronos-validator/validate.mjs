// Usage: node validate.mjs FILE — prints the Khronos glTF-Validator report as JSON on stdout.
import { readFile } from "node:fs/promises";
import path from "node:path";
import validator from "gltf-validator";

const file = process.argv[2];
const bytes = new Uint8Array(await readFile(file));
const report = await validator.validateBytes(bytes, {
  uri: path.basename(file),
  // External buffers and images are read from beside the file (data: URIs need nothing).
  externalResourceFunction: (uri) =>
    readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
});
process.stdout.write(JSON.stringify(report));
