// store.js - what the page keeps between visits (its games, its figures,
// its settings), as JSON under one prefix in localStorage or another
// Storage. A value that cannot be read gives the fallback; a storage that
// is full or switched off leaves the game playing, unsaved.

export function storage(prefix, backing = globalThis.localStorage) {
  return {
    load(key, fallback) {
      try {
        const value = JSON.parse(backing.getItem(prefix + key));
        return value === null || value === undefined ? fallback : value;
      } catch {
        return fallback;
      }
    },
    store(key, value) {
      try {
        backing.setItem(prefix + key, JSON.stringify(value));
      } catch {
        /* full or off: play on */
      }
    },
  };
}
