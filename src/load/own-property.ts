/**
 * Setting a key read from input on an object: always an own data property. A plain assignment of `__proto__`
 * sets the object's prototype instead (the entry is lost: a tool named `__proto__` vanished from snapshots).
 */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
