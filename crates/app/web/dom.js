// Small helpers for building the page's elements. They touch the document only when called.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The element with id `id`. */
export const $ = (id) => document.getElementById(id);

/** An SVG element with attributes `attrs` and text `text`. */
export function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An HTML element with a class (or none), text (or none) and data attributes. */
export function html(tag, className, text, data) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = text;
  for (const [k, v] of Object.entries(data || {})) e.dataset[k] = v;
  return e;
}

/** Sets the text of element `id`. */
export function setText(id, text) {
  $(id).textContent = text;
}
