import { createMarkdownRenderer } from 'vitepress';
import { parse } from '@vue/compiler-dom';
import { readFileSync, readdirSync } from 'node:fs';
const md = await createMarkdownRenderer('docs', {}, '/docs/');
for (const f of readdirSync('docs').filter(n => n.endsWith('.md'))) {
  const out = md.render(readFileSync('docs/' + f, 'utf8'), { path: 'docs/' + f, relativePath: f, cleanUrls: false });
  try { parse(`<div>${out}</div>`, { onError: (e) => { console.log(f, e.message, JSON.stringify(out.slice(e.loc.start.offset - 5 - 120, e.loc.start.offset + 40))); } }); } catch (e) { console.log(f, 'throw', e.message); }
}
