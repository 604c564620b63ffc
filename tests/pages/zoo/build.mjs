// Builds every stack of the Errands app into dist/<stack>/ (index.html, app.js, style.css).
// Run through build.sh, which installs the exact versions from package-lock.json first.
// `node build.mjs react vue` rebuilds only the stacks named.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import sveltePlugin from 'esbuild-svelte';
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
      const script = compileScript(descriptor, { id: 'errands', inlineTemplate: true, isProd: true });
      return { contents: script.content, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

const stacks = {
  vanilla: { entry: 'app.js' },
  jquery: { entry: 'app.js' },
  backbone: { entry: 'app.js' },
  react: { entry: 'app.jsx', options: { jsx: 'automatic' } },
  preact: { entry: 'app.jsx' }, // classic h() through the file's @jsx pragma
  vue: {
    entry: 'main.js',
    options: {
      plugins: [vueSfc],
      define: {
        __VUE_OPTIONS_API__: 'false',
        __VUE_PROD_DEVTOOLS__: 'false',
        __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
      },
    },
  },
  svelte: {
    entry: 'main.js',
    options: {
      plugins: [sveltePlugin({ compilerOptions: { css: 'external' } })],
      mainFields: ['svelte', 'browser', 'module', 'main'],
      conditions: ['svelte', 'browser', 'production'],
    },
  },
  lit: { entry: 'app.js', options: { loader: { '.css': 'text' } } },
  'shadow-closed': { entry: 'app.js', options: { loader: { '.css': 'text' } } },
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in stacks)) throw new Error(`unknown stack ${name}; known: ${Object.keys(stacks).join(' ')}`);
}

for (const [name, stack] of Object.entries(stacks)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const out = join(dist, name);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const options = stack.options || {};
  await esbuild.build({
    entryPoints: [join(src, name, stack.entry)],
    outfile: join(out, 'app.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    logLevel: 'warning',
    ...options,
    define: { 'process.env.NODE_ENV': '"production"', ...(options.define || {}) },
  });
  await copyFile(join(src, name, 'index.html'), join(out, 'index.html'));
  await copyFile(join(src, 'style.css'), join(out, 'style.css'));
  console.log(`built dist/${name}`);
}
