// Building the page from data without ever parsing data as HTML: every text goes in as a text node.

/** An element: h('p', {class: 'x', onclick: f}, 'text', child, [more]). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An SVG element, attributes set as given. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}

/** Replaces what a container shows. */
export function show(container, ...children) {
  container.replaceChildren();
  append(container, children);
  return container;
}

let labels = 0;

/** A labelled form field: the label names the control, as screen readers and tests find it. */
export function field(label, control, hint) {
  const id = control.id || `f${++labels}`;
  control.id = id;
  const hintId = hint ? `${id}-hint` : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint && h('small', { id: hintId }, hint));
}

/** A table with a caption, column headers, and one row per item. */
export function table(caption, columns, rows) {
  return h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: columns.length }, 'None'))));
}

/** The status line every screen reader announces. */
export function say(message, kind = 'info') {
  const status = document.getElementById('status');
  show(status, h('p', { class: kind }, message));
}

export function time(value) {
  return value ? new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) : '';
}

export function number(value) {
  return value === undefined || value === null ? '' : Number(value).toLocaleString();
}
