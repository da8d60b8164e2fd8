// Modules a phone needs only sometimes (the seat link, the audience, the host's remote, help, the coach) are loaded
// the first time they are needed, so the page a player opens stays light (plain dynamic imports, no build step).
const loading = new Map();

/** The module `name` of phone/ (e.g. 'seatlink'), imported once. */
export function later(name) {
  if (!loading.has(name)) loading.set(name, import(`./${name}.js`));
  return loading.get(name);
}
