// The dialogs of the header's buttons (New game, Export / import, Recent games): each a
// modal <dialog> that a button with `data-opens="its id"` opens, and its × button, Escape or
// a click beside it closes.

import { $ } from './dom.js';

/** Wires every dialog of the page and the buttons that open them. */
export function wireDialogs() {
  for (const b of document.querySelectorAll('[data-opens]')) {
    b.addEventListener('click', () => openDialog(b.dataset.opens));
  }
  for (const d of document.querySelectorAll('dialog')) {
    d.addEventListener('click', (e) => {
      // a click on the backdrop lands on the dialog itself, outside its box
      const r = d.getBoundingClientRect();
      const outside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
      if (e.target.closest('[data-close]') || (e.target === d && outside)) d.close();
    });
  }
}

/** Opens dialog `id` over the page. */
export function openDialog(id) {
  const d = $(id);
  if (!d.open) d.showModal();
}

/** Closes dialog `id` (nothing when it is closed). */
export function closeDialog(id) {
  const d = $(id);
  if (d.open) d.close();
}
