import type fr from "../fr/carte";

/** English texts of the carte area, spread into ./translation.ts. */
const texts = {} satisfies typeof fr;

export default texts;
