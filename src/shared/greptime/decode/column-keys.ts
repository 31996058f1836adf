/**
 * The keys of a table's columns in a row line, unique: a column takes its name, unless a fixed
 * key or an earlier column has it, then `name#2`, `#3`... Each name remembers the last number
 * it gave, so 20,000 columns of one name take linear time (counting from 2 for each was
 * quadratic: 38-46 s). A number a real column already holds (a column named `a#3`) is skipped.
 */
export class ColumnKeys {
  private readonly taken: Set<string>;
  private readonly nextNumber = new Map<string, number>();

  constructor(reserved: Iterable<string>) {
    this.taken = new Set(reserved);
  }

  keyOf(name: string): string {
    let key = name;
    if (this.taken.has(key)) {
      let n = this.nextNumber.get(name) ?? 2;
      for (key = `${name}#${n}`; this.taken.has(key); key = `${name}#${n}`) n += 1;
      this.nextNumber.set(name, n + 1);
    }
    this.taken.add(key);
    return key;
  }
}
