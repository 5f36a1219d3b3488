// Bundles the viewer into one self-contained script (three.js included, no imports left) that
// gltf_physics.view.page inlines into every page. Output goes into the Python package so the wheel carries it;
// it is build output, ignored by git.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(here, '..', 'src', 'gltf_physics', 'viewer_dist', 'viewer.js');

await build({
  entryPoints: [path.join(here, 'src', 'main.js')],
  bundle: true,
  format: 'iife',
  minify: true,
  target: ['es2020'],
  legalComments: 'eof', // keep three.js's MIT notice in the bundle
  outfile,
  logLevel: 'info',
});
