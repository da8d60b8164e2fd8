// Modules a phone needs only sometimes (the seat link, the audience, the host's remote, help, the coach) are loaded
// the first time they are needed, so the page a player opens stays light (plain dynamic imports, no build step).
const loading = new Map();

/** The module `name` of phone/ (e.g. 'seatlink'), imported once. */
export function later(name) {
  if (!loading.has(name)) {
    // A host that is restarting cannot serve the module: forget the failure, so the next call fetches it again.
    const p = import(`./${name}.js`);
    p.catch(() => loading.delete(name));
    loading.set(name, p);
  }
  return loading.get(name);
}

/** Fetch a module now, to have it when it is needed (a failure is retried by the next later()). */
export function prefetch(name) {
  later(name).catch(() => { /* retried when needed */ });
}

/** The stylesheet phone/<name>.css, added to the page once (for a module loaded with later()); resolves when it
 *  applies, so a module can wait for its looks before it draws. A failure (the host restarting) rejects, and the
 *  module's import with it: the next later() fetches both again. */
export function styles(name) {
  const old = document.querySelector(`link[data-styles="${name}"]`);
  if (old) return old._ready;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL(`./${name}.css`, import.meta.url).href;
  link.dataset.styles = name;
  link._ready = new Promise((done, fail) => {
    link.onload = done;
    link.onerror = () => { link.remove(); fail(new Error(`${name}.css`)); };
  });
  document.head.append(link);
  return link._ready;
}
