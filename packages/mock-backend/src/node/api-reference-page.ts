import type { JsonSchema, OpenApiDocument } from '@otto/api-contract';

type Operation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema; content?: Record<string, { schema: JsonSchema }> }[];
  requestBody?: { description?: string; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
};
type Response = { $ref?: string; description?: string; headers?: Record<string, { $ref?: string }>; content?: Record<string, { schema: JsonSchema }> };

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** The little Markdown the document's descriptions use: paragraphs, `-` lists, `code` and **bold**. */
function markdown(text: string): string {
  const inline = (line: string) =>
    escape(line)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const items = block.split(/\n(?=- )/);
      if (items[0]?.startsWith('- ')) return `<ul>${items.map((i) => `<li>${inline(i.slice(2).replace(/\n\s*/g, ' '))}</li>`).join('')}</ul>`;
      return `<p>${inline(block.replace(/\n\s*/g, ' '))}</p>`;
    })
    .join('\n');
}

const characters = (n: number) => `${n} character${n === 1 ? '' : 's'}`;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const safeInt = 9007199254740991;

/** One schema in words: a type with its rules, or links to named schemas. */
function schemaHtml(schema: JsonSchema | undefined): string {
  if (!schema) return 'anything';
  const fallback = schema.default !== undefined ? `, default <code>${escape(JSON.stringify(schema.default))}</code>` : '';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#schema-${escape(name)}">${escape(name)}</a>${fallback}`;
  }
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(schemaHtml).join(' or ');
  if (Array.isArray(schema.allOf)) return (schema.allOf as JsonSchema[]).map(schemaHtml).join(', with ');
  const rules: string[] = [];
  if (schema.const !== undefined) rules.push(`exactly <code>${escape(JSON.stringify(schema.const))}</code>`);
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((v) => `<code>${escape(JSON.stringify(v))}</code>`).join(', ')}`);
  if (typeof schema.minLength === 'number') rules.push(`at least ${characters(schema.minLength)}`);
  if (typeof schema.maxLength === 'number') rules.push(`at most ${characters(schema.maxLength)}`);
  if (typeof schema.pattern === 'string') rules.push(`matches <code>${escape(schema.pattern)}</code>`);
  if (typeof schema.minimum === 'number' && schema.minimum !== -safeInt) rules.push(`from ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && schema.maximum !== safeInt) rules.push(`up to ${schema.maximum}`);
  let type = typeof schema.type === 'string' ? schema.type : schema.properties ? 'object' : '';
  if (type === 'array') type = `array of ${schemaHtml(schema.items as JsonSchema | undefined)}`;
  const head = `${[type, ...rules].filter(Boolean).join(', ')}${fallback}`;
  return schema.properties ? `${head}${propertiesHtml(schema)}` : head || 'anything';
}

function propertiesHtml(schema: JsonSchema): string {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const rows = Object.entries(schema.properties as Record<string, JsonSchema>).map(
    ([name, property]) =>
      `<tr><td><code>${escape(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${schemaHtml(property)}</td></tr>`,
  );
  return `<table class="props"><tbody>${rows.join('')}</tbody></table>`;
}

function contentHtml(content: Record<string, { schema: JsonSchema }> | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(([type, { schema }]) => `<div class="media"><code>${escape(type)}</code>: ${schemaHtml(schema)}</div>`)
    .join('');
}

function operationHtml(method: string, path: string, op: Operation, doc: OpenApiDocument, base: string): string {
  const responses = Object.entries(op.responses).map(([status, given]) => {
    const shared = given.$ref ? (doc.components.responses[refName(given.$ref)] as Response) : given;
    const headers = Object.keys(given.headers ?? {}).map((h) => `<div class="media">header <code>${escape(h)}</code>: whole number</div>`);
    return `<tr><td class="status">${escape(status)}</td><td>${escape(given.description ?? shared.description ?? '')}${headers.join('')}${contentHtml(shared.content)}</td></tr>`;
  });
  const params = (op.parameters ?? []).map(
    (p) =>
      `<tr><td><code>${escape(p.name)}</code> <span class="in">${escape(p.in)}</span>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${escape(p.description ?? '')}${p.content ? contentHtml(p.content) : `<div class="media">${schemaHtml(p.schema)}</div>`}</td></tr>`,
  );
  return `<section class="op" id="op-${escape(op.operationId)}" data-operation="${escape(`${method.toUpperCase()} ${path}`)}">
<h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(base + path)}</code></h3>
<p>${escape(op.summary ?? '')}</p>
${params.length ? `<h4>Parameters</h4><table><tbody>${params.join('')}</tbody></table>` : ''}
${op.requestBody ? `<h4>Body</h4><p>${escape(op.requestBody.description ?? '')}</p>${contentHtml(op.requestBody.content)}` : ''}
<h4>Answers</h4><table><tbody>${responses.join('')}</tbody></table>
</section>`;
}

/**
 * A self-contained HTML reference of an OpenAPI document: every operation with its parameters,
 * body and answers, and every named schema. No script and nothing loaded from elsewhere, so it
 * works offline and under a strict Content-Security-Policy.
 */
export function renderApiReferencePage(doc: OpenApiDocument, { documentUrl }: { documentUrl: string }): string {
  const base = doc.servers[0]?.url ?? '';
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op: op as Operation })),
  );
  const byTag = doc.tags.map((tag) => ({ tag, ops: operations.filter(({ op }) => op.tags?.includes(tag.name)) }));
  const nav = byTag
    .map(
      ({ tag, ops }) =>
        `<li>${escape(tag.name)}<ul>${ops.map(({ method, path, op }) => `<li><a href="#op-${escape(op.operationId)}"><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> ${escape(path)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const sections = byTag
    .map(
      ({ tag, ops }) =>
        `<h2 id="tag-${escape(tag.name)}">${escape(tag.name)}</h2>${tag.description ? markdown(tag.description) : ''}${ops.map(({ method, path, op }) => operationHtml(method, path, op, doc, base)).join('\n')}`,
    )
    .join('\n');
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<section class="schema" id="schema-${escape(name)}"><h3>${escape(name)}</h3>${schema.description ? markdown(String(schema.description)) : ''}<div>${schemaHtml({ ...schema, description: undefined })}</div></section>`)
    .join('\n');
  const unknown = doc['x-otto-unknown-route'];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escape(doc.info.title)} ${escape(doc.info.version)}: API reference</title>
<style>
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d232a;display:grid;grid-template-columns:17rem 1fr}
nav{position:sticky;top:0;height:100vh;overflow:auto;background:#f4f6f8;padding:1rem;box-sizing:border-box;font-size:14px}
nav ul{list-style:none;padding-left:.5rem;margin:.25rem 0 .75rem}nav a{color:inherit;text-decoration:none}nav a:hover{text-decoration:underline}
main{padding:1rem 2rem 4rem;max-width:62rem}
code{font:13px/1.4 ui-monospace,monospace;background:#eef1f4;padding:0 .25rem;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.25rem 0}td{border-top:1px solid #dde2e7;padding:.35rem .5rem;vertical-align:top}
table.props{margin-left:.5rem;width:auto}td.status{font-weight:600;width:3.5rem}
.op,.schema{border:1px solid #dde2e7;border-radius:6px;padding:.25rem 1rem .75rem;margin:1rem 0}
.method{display:inline-block;min-width:3.4rem;font:600 12px ui-monospace,monospace;color:#fff;background:#546270;border-radius:3px;padding:.1rem .3rem;text-align:center}
.method.get{background:#1f6feb}.method.post{background:#1a7f37}.method.put{background:#9a6700}.method.patch{background:#8250df}
.req{font-size:12px;color:#b42318}.in{font-size:12px;color:#546270}.media{margin:.25rem 0}
</style>
</head>
<body>
<nav aria-label="Operations"><strong>${escape(doc.info.title)}</strong> <span>${escape(doc.info.version)}</span><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main>
<h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
<p>OpenAPI ${escape(doc.openapi)} document: <a href="${escape(documentUrl)}">${escape(documentUrl)}</a>. Base path <code>${escape(base)}</code>.</p>
${markdown(doc.info.description)}
<h2>Requests that match no operation</h2>
<p>${escape(unknown.description)} Answer: ${unknown.status}, ${contentHtml((doc.components.responses[refName(unknown.response.$ref)] as Response).content)}</p>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}
</main>
</body>
</html>
`;
}
