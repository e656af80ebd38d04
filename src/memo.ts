// The memo caches of pure functions (compiled globs, glob translations, pattern intersections): a Map
// that empties itself when it reaches `limit` entries. One CLI run asks about a pipeline's few dozen
// globs and never gets there; a process that lives on (`build --watch` across edits, a test worker
// through the random globs of the property tests) would otherwise keep every glob it ever saw: the
// glob property tests left ~90 MB behind in the test worker, which every later file paid for in
// garbage collection and in each process it forked.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit = 1024) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
