// Builds every app of the app zoo into dist/<app>/ (index.html, app.js, app.css; the docs
// site also gets its markdown pages and search.json, every page's text for the search index;
// the Swagger UI its openapi.json; the pet store is swagger-ui-dist's distribution as the
// package ships it, its initializer pointed at an openapi.json of its own).
// Run through build.sh, which installs the exact versions from package-lock.json first.
// `node build.mjs docs api` rebuilds only the apps named.
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const dist = join(here, 'dist');
const jsx = { jsx: 'automatic' };

const apps = {
  docs: { entry: 'app.js', extra: docsPages },
  api: { entry: 'app.jsx', options: jsx },
  facets: { entry: 'app.js' },
  dashboard: { entry: 'app.jsx', options: jsx },
  swagger: { entry: 'app.js', extra: swaggerSpec },
  petstore: { extra: swaggerDist },
};

// The docs' pages copied as they are, and search.json: per page its id ("guide/intro"), its
// title (the first heading), its text and the summary a search result shows.
async function docsPages(from, out) {
  await cp(join(from, 'pages'), join(out, 'pages'), { recursive: true });
  const docs = [];
  for (const section of ['guide', 'api']) {
    for (const file of (await readdir(join(from, 'pages', section))).sort()) {
      const markdown = await readFile(join(from, 'pages', section, file), 'utf8');
      const [first, ...rest] = markdown.split('\n');
      docs.push({
        id: `${section}/${file.replace(/\.md$/, '')}`,
        title: first.replace(/^#\s*/, ''),
        text: rest.join(' ').replace(/[#`|*[\]()-]+/g, ' ').replace(/\s+/g, ' ').trim(),
        summary: section === 'api' ? 'API reference' : 'Guide',
      });
    }
  }
  await writeFile(join(out, 'search.json'), JSON.stringify(docs));
}

// openapi.json: the document spec.mjs describes.
async function swaggerSpec(from, out) {
  const { spec } = await import(join(from, 'spec.mjs'));
  await writeFile(join(out, 'openapi.json'), JSON.stringify(spec(), null, 1));
}

// swagger-ui-dist's files, untouched but for its initializer (ours), and openapi.json.
async function swaggerDist(from, out) {
  const files = ['index.html', 'index.css', 'swagger-ui.css', 'swagger-ui-bundle.js',
    'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png', 'LICENSE', 'NOTICE',
    'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui-standalone-preset.js.LICENSE.txt'];
  for (const file of files) await copyFile(join(here, 'node_modules', 'swagger-ui-dist', file), join(out, file));
  await copyFile(join(from, 'swagger-initializer.js'), join(out, 'swagger-initializer.js'));
  await swaggerSpec(from, out);
}

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in apps)) throw new Error(`unknown app ${name}; known: ${Object.keys(apps).join(' ')}`);
}

for (const [name, app] of Object.entries(apps)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const from = join(src, name);
  const out = join(dist, name);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  if (app.entry) {
    await bundle(from, out, app);
    await copyFile(join(from, 'index.html'), join(out, 'index.html'));
  }
  if (app.extra) await app.extra(from, out);
  console.log(`built dist/${name}`);
}

// dist/<app>/app.js and app.css: the app's entry and style.css, bundled and minified.
async function bundle(from, out, app) {
  await esbuild.build({
    entryPoints: [join(from, app.entry)],
    outfile: join(out, 'app.js'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    ...(app.options || {}),
  });
  await esbuild.build({
    entryPoints: [join(from, 'style.css')], outfile: join(out, 'app.css'), bundle: true, minify: true,
    logLevel: 'warning',
  });
}
