// Usage: node validate_many.mjs < files.json — validates every path in the JSON array read from stdin with the
// Khronos glTF-Validator and prints one JSON object per line: {"file", "messages": [{code, severity, pointer}]}.
// One process for many files: the differential test runs hundreds of documents in a few seconds.
import { readFile } from "node:fs/promises";
import path from "node:path";
import validator from "gltf-validator";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const files = JSON.parse(Buffer.concat(chunks).toString("utf8"));

for (const file of files) {
  let messages;
  try {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        readFile(path.join(path.dirname(file), decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
    });
    messages = report.issues.messages.map((m) => ({ code: m.code, severity: m.severity, pointer: m.pointer ?? "" }));
  } catch (error) {
    // The validator rejects input it cannot even classify as glTF or GLB: that is an error on the document.
    messages = [{ code: "UNRECOGNIZED_INPUT", severity: 0, pointer: "", message: String(error) }];
  }
  process.stdout.write(JSON.stringify({ file, messages }) + "\n");
}
