// Builds every app of the kit zoo into dist/<app>/ (index.html, app.js, and app.css when the
// app imports a stylesheet). Run through build.sh, which installs the exact versions from
// package-lock.json first. `node build.mjs mui vue` rebuilds only the apps named.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { compileScript, parse } from 'vue/compiler-sfc';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const dist = join(here, 'dist');

// Compiles a <script setup> single-file component, template inlined, to plain JS.
const vueSfc = {
  name: 'vue-sfc',
  setup(build) {
    build.onLoad({ filter: /\.vue$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const { descriptor, errors } = parse(source, { filename: args.path });
      if (errors.length) throw errors[0];
      const script = compileScript(descriptor, { id: 'settings', inlineTemplate: true, isProd: true });
      return { contents: script.content, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

const apps = {
  bootstrap: { entry: 'app.js' },
  mui: { entry: 'app.jsx', options: { jsx: 'automatic' } },
  vue: {
    entry: 'main.js',
    options: {
      plugins: [vueSfc],
      define: {
        __VUE_OPTIONS_API__: 'true', // PrimeVue's components use the options API
        __VUE_PROD_DEVTOOLS__: 'false',
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      },
    },
  },
  headless: { entry: 'app.jsx', options: { jsx: 'automatic' } },
  shoelace: { entry: 'app.js' },
  todo: { entry: 'app.js' },
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in apps)) throw new Error(`unknown app ${name}; known: ${Object.keys(apps).join(' ')}`);
}

for (const [name, app] of Object.entries(apps)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const out = join(dist, name);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const options = app.options || {};
  await esbuild.build({
    entryPoints: [join(src, name, app.entry)],
    outfile: join(out, 'app.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'warning',
    ...options,
    define: { 'process.env.NODE_ENV': '"production"', ...(options.define || {}) },
  });
  await copyFile(join(src, name, 'index.html'), join(out, 'index.html'));
  console.log(`built dist/${name}`);
}
